// Types of the robotstxt WebAssembly package (index.js).

export interface Who {
  /** A product token, matched as given (Google's OneAgentAllowedByRobots). */
  token?: string;
  /** A crawler of the catalogue: its fallback tokens and dialect apply. */
  crawler?: string;
  /** "google", "rfc9309", "bing", "yandex", "baidu", "original". */
  dialect?: string | number;
}

export interface Decision {
  allowed: boolean;
  line: number;
  dialect: string;
  path: string;
  rule: { line: number; allow: boolean; pattern: string; text: string; implicit: boolean } | null;
  group: { kind: string; token: string; lines: number[]; groups: number[]; reason: string };
  reason: string;
  crawl_delay: number | null;
  crawl_delay_line: number;
}

export interface UsageAnswer {
  allowed: boolean;
  line: number;
  usage: ({ lines: number[] } & Record<string, string | number[]>) | null;
  signals: { search: string | null; 'ai-train': string | null; 'ai-input': string | null; line: number } | null;
}

export class Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  getPreferredHost(): string | null;
  allowed(url: string, token: string, dialect?: string | number): { allowed: boolean; line: number };
  decide(url: string, ua?: string, opts?: Who): Decision;
  usage(url: string, ua?: string, opts?: Who): UsageAnswer;
  pace(ua?: string, opts?: Who): Record<string, unknown>;
  readonly policy: 'rules' | 'allow-all' | 'disallow-all';
  readonly reason: string;
  readonly unreachable: boolean;
  free(): void;
}

declare function robotsParser(url: string, contents: string | Uint8Array | ArrayBuffer): Robots;

declare namespace robotsParser {
  function forStatus(url: string, status: number, contents?: string | Uint8Array | ArrayBuffer,
    opts?: { contentType?: string; dialect?: string | number }): Robots;
  function alive(): number;
}

export default robotsParser;
export { robotsParser };
