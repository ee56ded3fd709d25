package suggest

import "testing"

func TestCrawlerAndDialect(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Gooblebot", "Googlebot"}, {"bingbott", "Bingbot"}, {"GPTbot", "GPTBot"}, {"zzzzzz", ""},
	} {
		if got := Crawler(tc.in); got != tc.want {
			t.Errorf("Crawler(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"gogle", "google"}, {"rfc9390", "rfc9309"}, {"yandx", "yandex"}, {"zzzzzz", ""},
	} {
		if got := Dialect(tc.in); got != tc.want {
			t.Errorf("Dialect(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
