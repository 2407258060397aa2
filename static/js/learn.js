// Learn pages, progressive enhancement: on a phone the page links are one row that scrolls
// sideways; bring the current page's link into view.
(function () {
  "use strict";
  var nav = document.querySelector(".learn-nav");
  var current = nav && nav.querySelector("[aria-current]");
  if (current && nav.scrollWidth > nav.clientWidth) {
    nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
  }
})();
