/* abi.c: drives librobotstxt through its header, as a C host would.
 * Built and run by TestABI (capi_test.go). Prints "ok" and exits 0, or
 * names the first check that failed and exits 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../robotstxt.h"

static int failed;

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "abi.c:%d: ", __LINE__);              \
			fprintf(stderr, __VA_ARGS__);                         \
			fprintf(stderr, "\n");                                \
			failed = 1;                                           \
		}                                                             \
	} while (0)

static const char body[] = "User-agent: Googlebot\nDisallow: /private/\n"
			   "Allow: /private/press/\n\nUser-agent: *\n"
			   "Disallow: /tmp/\nCrawl-delay: 5\n"
			   "Sitemap: https://example.com/sitemap.xml\n";

static int64_t ask(int64_t h, const char *agent, int kind, const char *url) {
	char *err = NULL;
	int64_t v = rtx_ask(h, agent, strlen(agent), kind, url, strlen(url), 0, &err);
	if (err) {
		fprintf(stderr, "error: %s\n", err);
		rtx_free_string(err);
	}
	return v;
}

static void *worker(void *arg) {
	int64_t h = *(int64_t *)arg;
	for (int i = 0; i < 2000; i++) {
		int64_t v = rtx_ask(h, "Googlebot", 9, 0, "/private/x", 10, 0, NULL);
		if (v != 2 * 2 + 0) {
			failed = 1;
		}
		int64_t h2 = rtx_parse("User-agent: *\nDisallow: /\n", 26, NULL);
		rtx_free(h2);
	}
	return NULL;
}

int main(void) {
	char *err = NULL;
	int64_t h = rtx_parse(body, sizeof body - 1, &err);
	CHECK(h > 0 && err == NULL, "rtx_parse = %lld", (long long)h);

	CHECK(ask(h, "Googlebot", RTX_AGENT_TOKEN, "https://example.com/private/x") == 2 * 2 + 0, "private");
	CHECK(ask(h, "Googlebot", RTX_AGENT_TOKEN, "https://example.com/private/press/a") == 3 * 2 + 1, "press");
	CHECK(ask(h, "GPTBot", RTX_AGENT_TOKEN, "/tmp/a") == 6 * 2 + 0, "tmp");
	CHECK(ask(h, "Mozilla/5.0 (compatible; Googlebot/2.1)", RTX_AGENT_HEADER, "/private/x") == 4, "header");
	CHECK(ask(h, "Googlebot-Image", RTX_AGENT_CRAWLER, "/private/x") == 4, "crawler");

	CHECK(rtx_allowed(h, "Googlebot", 9, 0, "/private/x", 10, 0, &err) == 0 && err == NULL, "allowed private");
	CHECK(rtx_allowed(h, "Googlebot/2.1", 13, 1, "/private/press/", 15, 0, NULL) == 1, "allowed press");
	CHECK(rtx_allowed(h + 999, "a", 1, 0, "/", 1, 0, NULL) == -1, "allowed bad handle");

	/* Errors: an unknown crawler, a handle never made, kind out of range. */
	int64_t v = rtx_ask(h, "NoSuchBot", 9, RTX_AGENT_CRAWLER, "/", 1, 0, &err);
	CHECK(v == -1 && err != NULL && strstr(err, "unknown crawler"), "unknown crawler: %lld", (long long)v);
	rtx_free_string(err);
	v = rtx_ask(h + 12345, "a", 1, 0, "/", 1, 0, &err);
	CHECK(v == -1 && err != NULL && strstr(err, "unknown handle"), "bad handle");
	rtx_free_string(err);
	v = rtx_ask(h, "a", 1, 42, "/", 1, 0, NULL); /* err may be NULL */
	CHECK(v == -1, "kind 42");
	/* NULL with length 0 is the empty string. */
	v = rtx_ask(h, NULL, 0, 0, NULL, 0, 0, &err);
	CHECK(v == 1 && err == NULL, "empty strings: %lld", (long long)v);

	char *j = rtx_decide(h, "Googlebot", 9, 0, "/private/press/a", 16, 0, &err);
	CHECK(j && strstr(j, "\"line\":3") && strstr(j, "Allow: /private/press/"), "decide: %s", j ? j : err);
	rtx_free_string(j);
	j = rtx_crawl_delay(h, "ExampleBot", 10, 0, 0, &err);
	CHECK(j && strstr(j, "\"crawl_delay\":5"), "crawl_delay: %s", j ? j : err);
	rtx_free_string(j);
	j = rtx_sitemaps(h, &err);
	CHECK(j && strcmp(j, "[{\"url\":\"https://example.com/sitemap.xml\",\"line\":8}]") == 0, "sitemaps: %s", j ? j : err);
	rtx_free_string(j);
	j = rtx_usage(h, "x", 1, 0, "/", 1, 0, &err);
	CHECK(j && strstr(j, "\"allowed\":true"), "usage: %s", j ? j : err);
	rtx_free_string(j);
	j = rtx_info(h, &err);
	CHECK(j && strstr(j, "\"policy\":\"rules\""), "info: %s", j ? j : err);
	rtx_free_string(j);
	CHECK(rtx_dialect("bing", 4, NULL) == 3, "dialect bing");
	CHECK(rtx_dialect("nope", 4, &err) == -1 && err, "dialect nope");
	rtx_free_string(err);

	/* The status policy. */
	int policy = 0;
	int64_t s = rtx_for_status(503, NULL, 0, "", 0, 0, &policy, &err);
	CHECK(s > 0 && policy == RTX_POLICY_DISALLOW_ALL, "503: %d", policy);
	CHECK(rtx_ask(s, "a", 1, 0, "/x", 2, 0, NULL) == 0, "503 disallows");
	CHECK(rtx_ask(s, "a", 1, 0, "/robots.txt", 11, 0, NULL) == 1, "503 /robots.txt");
	rtx_free(s);
	s = rtx_for_status(404, "text/html", 9, "<html>", 6, 0, &policy, &err);
	CHECK(s > 0 && policy == RTX_POLICY_ALLOW_ALL, "404: %d", policy);
	rtx_free(s);
	s = rtx_for_status(200, "text/plain", 10, body, sizeof body - 1, 0, &policy, &err);
	CHECK(s > 0 && policy == RTX_POLICY_RULES, "200: %d", policy);
	CHECK(rtx_ask(s, "GPTBot", 6, 0, "/tmp/a", 6, 0, NULL) == 12, "200 rules");
	rtx_free(s);

	/* Threads sharing a handle while others parse and free. */
	pthread_t t[4];
	for (int i = 0; i < 4; i++) {
		pthread_create(&t[i], NULL, worker, &h);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
	}
	CHECK(!failed, "threads");

	rtx_free(h);
	CHECK(rtx_ask(h, "a", 1, 0, "/", 1, 0, NULL) == -1, "freed handle answers");
	rtx_free(h);
	CHECK(rtx_alive() == 0, "%lld handles alive", (long long)rtx_alive());
	if (failed) {
		return 1;
	}
	printf("ok\n");
	return 0;
}
