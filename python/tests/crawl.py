"""A Scrapy crawl, run by test_scrapy.py in its own process (Twisted's
reactor runs once per process): python3 -m tests.crawl MODE URL...

MODE is "protego" (Scrapy's default parser), "google" (ROBOTSTXT_PARSER
set to robotstxt.scrapy.GoogleRobotParser) or "google+status" (the
parser and robotstxt.scrapy.RobotsTxtMiddleware). The spider follows every
link; the test's servers record what was fetched."""

import sys

import scrapy
from scrapy.crawler import CrawlerProcess


class Follow(scrapy.Spider):
    name = "follow"

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)


def main(mode, urls):
    settings = {
        "ROBOTSTXT_OBEY": True,
        "USER_AGENT": "ExampleBot/1.0 (+https://example.com/bot)",
        "RETRY_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    }
    if mode.startswith("google"):
        settings["ROBOTSTXT_PARSER"] = "robotstxt.scrapy.GoogleRobotParser"
    if mode == "google+status":
        settings["DOWNLOADER_MIDDLEWARES"] = {
            "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
            "robotstxt.scrapy.RobotsTxtMiddleware": 100,
        }
    process = CrawlerProcess(settings)
    process.crawl(Follow, start_urls=urls)
    process.start()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
