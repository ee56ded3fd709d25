package main

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
)

// challengeSign is one signature of a challenge or bot-wall page: the
// product that serves it and what gives it away, in a header or in the
// body. A body is matched without regard to case.
type challengeSign struct {
	product string
	// header and value: a response header holding value (any value when
	// value is ""), compared without regard to case.
	header, value string
	// body: every one of these strings is in the body.
	body []string
}

// challengeSigns are the signatures probe knows, the most specific first.
// They are markers that challenge pages carry for their own scripts, not
// words a robots.txt would hold.
var challengeSigns = []challengeSign{
	{product: "Cloudflare", header: "Cf-Mitigated", value: "challenge"},
	{product: "Cloudflare", body: []string{"/cdn-cgi/challenge-platform/"}},
	{product: "Cloudflare", body: []string{"_cf_chl_opt"}},
	{product: "Cloudflare Turnstile", body: []string{"challenges.cloudflare.com/turnstile"}},
	{product: "Vercel", header: "X-Vercel-Mitigated", value: "challenge"},
	{product: "AWS WAF", header: "X-Amzn-Waf-Action", value: "challenge"},
	{product: "AWS WAF", header: "X-Amzn-Waf-Action", value: "captcha"},
	{product: "AWS WAF", body: []string{"awswafintegration"}},
	{product: "Anubis", body: []string{"anubis_challenge"}},
	{product: "Anubis", body: []string{"within.website/x/cmd/anubis"}},
	{product: "Anubis", body: []string{"making sure you're not a bot"}},
	{product: "DataDome", body: []string{"captcha-delivery.com"}},
	{product: "DataDome", header: "X-Datadome", value: "protected"},
	{product: "HUMAN (PerimeterX)", body: []string{"px-captcha"}},
	{product: "Imperva", body: []string{"_incapsula_resource"}},
	{product: "Imperva", body: []string{"incapsula incident id"}},
	{product: "Sucuri", body: []string{"sucuri_cloudproxy_js"}},
	{product: "Sucuri", body: []string{"sucuri website firewall"}},
	{product: "DDoS-Guard", body: []string{"ddos-guard", "check"}},
	{product: "Akamai", body: []string{"_abck"}},
	{product: "hCaptcha", body: []string{"hcaptcha.com/1/api.js"}},
	{product: "reCAPTCHA", body: []string{"www.google.com/recaptcha/"}},
	{product: "a JavaScript check", body: []string{"checking your browser before accessing"}},
	{product: "a JavaScript check", body: []string{"enable javascript and cookies to continue"}},
}

// challengeOf names the product whose challenge or bot-wall page an
// answer is ("Cloudflare", "Anubis"), or "" when none of challengeSigns
// matches. h is the answer's header, body what was read of its body (a
// prefix, decoded). A body's markers count only when it looks like
// HTML: a file of rules never carries a page's scripts, but its comments
// may name them.
func challengeOf(h http.Header, body []byte) string {
	var lower []byte
	html := looksLikeHTML(h.Get("Content-Type"), body)
	for _, s := range challengeSigns {
		if s.header != "" {
			for _, v := range h.Values(s.header) {
				if s.value == "" || strings.Contains(strings.ToLower(v), s.value) {
					return s.product
				}
			}
			continue
		}
		if !html {
			continue
		}
		if lower == nil {
			lower = bytes.ToLower(body)
		}
		all := true
		for _, m := range s.body {
			if !bytes.Contains(lower, []byte(m)) {
				all = false
				break
			}
		}
		if all {
			return s.product
		}
	}
	return ""
}

// looksLikeHTML reports whether an answer is an HTML page: served as
// text/html (or XHTML), or a body that starts, after white space and a
// byte-order mark, with a doctype or an html tag.
func looksLikeHTML(contentType string, body []byte) bool {
	if contentType != "" {
		if mt, _, err := mime.ParseMediaType(contentType); err == nil && (mt == "text/html" || mt == "application/xhtml+xml") {
			return true
		}
	}
	b := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")), " \t\r\n")
	b = b[:min(len(b), 16)]
	lb := bytes.ToLower(b)
	return bytes.HasPrefix(lb, []byte("<!doctype html")) || bytes.HasPrefix(lb, []byte("<html")) || bytes.HasPrefix(lb, []byte("<head"))
}
