// The robots.txt tester page: the entry module. Plain JavaScript modules,
// no dependency, no build step: the server serves each file of web/js as
// it is. The sections run in this order, as the page's one script ran them.
import './js/tester.js';
import './js/watches.js';
import './js/audit.js';
import './js/guard.js';
