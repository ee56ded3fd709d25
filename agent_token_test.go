package robotstxt

import "testing"

func TestProductToken(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"Googlebot/2.1", "Googlebot"},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", "Googlebot"},
		{"  ExampleBot/1.0 (+https://example.com/bot)", "ExampleBot"},
		{"Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)", "ExampleBot"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/126.0.0.0 Safari/537.36", "Googlebot"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (compatible; Googlebot-Image/1.0)", "Googlebot-Image"},
		{"Mozilla/5.0 (COMPATIBLE ;  AhrefsBot/7.0; +http://ahrefs.com/robot/)", "AhrefsBot"},
		{"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "SemrushBot"},
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"},
		// A browser, or a Mozilla string with no compatible comment, names
		// Mozilla: no crawler's token.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36", "Mozilla"},
		{"Mozilla/5.0 (compatible)", "Mozilla"},
		{"Mozilla/5.0 (compatible; /1.0)", "Mozilla"},
		{"Mozilla/5.0 (compatible; ExampleBot", "ExampleBot"},
		{"", ""},
		{"/bad", ""},
		{"(compatible; X)", ""},
	} {
		if got := ProductToken(tc.header); got != tc.want {
			t.Errorf("ProductToken(%q) = %q, want %q", tc.header, got, tc.want)
		}
	}
}

func FuzzProductToken(f *testing.F) {
	f.Add("Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)")
	f.Fuzz(func(t *testing.T, h string) {
		if tok := ProductToken(h); tok != "" && !ValidToken(tok) {
			t.Fatalf("ProductToken(%q) = %q, not a valid token", h, tok)
		}
	})
}
