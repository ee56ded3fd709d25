// The tester's state that its sections share, in one object: a module's
// bindings cannot be assigned by the modules that import them, and each
// section reads and sets these.
export const S = {
  // The source: pasted or live.
  mode: 'paste',
  liveBody: null, // the live file's text, once fetched with rules to show
  liveInfo: null,
  fetching: false,
  // The page never drops text from the editor. loaded is what the page
  // itself put there last (a live file, a history version: {text, label});
  // kept is the text it replaced, kept aside ({text, label, button}) until
  // the undo bar swaps it back. Swapping keeps the other text aside in its
  // turn, so neither is lost.
  loaded: null,
  kept: null,
  oldLoaded: null, // what the page last put in the Diff view's old version
  // The crawler table of GET /v1/crawlers.
  table: { crawlers: [], defaults: [], dialects: [] },
  view: 'results',
  // The last question the results answer, and its answer.
  lastQuestion: null, // {sub, urls, crawlers, agents}
  report: null,
  selected: null, // [row, column]
  seq: 0,
  dialectsDirty: true,
  lintDirty: true,
  aiDirty: true,
};
