/* Checked numbers read as numbers. What stands behind one (the snippet and the name that computed
   it, and how it was checked: the link's title, written by snipcheck) shows in a small box on
   hover, on keyboard focus and on a first tap (a second tap, or the box's link, opens its row on
   the verification page), and becomes the link's accessible description. A button in the header
   highlights every checked number on the page; the choice is remembered (localStorage).
   Runs on every page Material shows, instant navigation included (document$). */
(function () {
  "use strict";

  var NUMBERS = "a.checked-number[href], a.cited-number[href]";
  var KEY = "ties-highlighted";
  var LABEL = "Highlight checked numbers";
  // Material Design Icons "marker-check" (Apache-2.0), as Material for MkDocs ships it.
  var ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true">' +
    '<path d="m10 16-5-5 1.41-1.42L10 13.17l7.59-7.59L19 7m0-6H5c-1.11 0-2 .89-2 2v12.93c0 .69.35 1.3.88 1.66L12 23l8.11-5.41c.53-.36.89-.97.89-1.66V3a2 2 0 0 0-2-2"/></svg>';
  var tip = null;
  var owner = null;
  var hideTimer = 0;
  var pointer = "mouse";

  function remembered() {
    try { return window.localStorage.getItem(KEY) === "true"; } catch (e) { return false; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, String(on)); } catch (e) { /* storage refused: this page only */ }
  }

  function box() {
    if (tip && tip.isConnected) return tip;
    tip = document.createElement("div");
    tip.className = "tie-tip";
    tip.hidden = true;
    // A screen reader hears the same words as the number's description (aria-describedby).
    tip.setAttribute("aria-hidden", "true");
    var text = document.createElement("span");
    var row = document.createElement("a");
    row.tabIndex = -1;
    row.textContent = "Its row on the verification page";
    row.target = "_self";
    tip.append(text, document.createElement("br"), row);
    tip.addEventListener("pointerenter", function () { window.clearTimeout(hideTimer); });
    tip.addEventListener("pointerleave", function (e) { if (e.pointerType === "mouse") hideSoon(); });
    document.body.appendChild(tip);
    return tip;
  }

  function place(el, link) {
    var rects = link.getClientRects();
    var r = rects.length ? rects[0] : link.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    el.style.left = "0px";
    el.style.top = "0px";
    var w = el.offsetWidth;
    var h = el.offsetHeight;
    var left = Math.max(8, Math.min(r.left, width - w - 8));
    var top = r.bottom + 6;
    if (top + h > window.innerHeight && r.top - h - 6 > 0) top = r.top - h - 6;
    el.style.left = Math.round(left + window.scrollX) + "px";
    el.style.top = Math.round(top + window.scrollY) + "px";
  }

  function show(link) {
    var el = box();
    window.clearTimeout(hideTimer);
    owner = link;
    el.firstChild.textContent = link.getAttribute("data-tip") || "";
    el.lastChild.href = link.href;
    el.hidden = false;
    place(el, link);
  }

  function hide() {
    window.clearTimeout(hideTimer);
    if (tip) tip.hidden = true;
    owner = null;
  }

  function hideSoon() {
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, 250);
  }

  function numberAt(target) {
    return target instanceof Element ? target.closest(NUMBERS) : null;
  }

  function inside(target, el) {
    return !!(el && target instanceof Node && el.contains(target));
  }

  /* The title becomes the box's text and, through a hidden element outside the article, the
     link's description (no native tooltip under the box). */
  function describe() {
    var old = document.getElementById("tie-descriptions");
    if (old) old.remove();
    var holder = document.createElement("div");
    holder.id = "tie-descriptions";
    holder.hidden = true;
    document.querySelectorAll(NUMBERS).forEach(function (link, i) {
      var text = link.getAttribute("title") || link.getAttribute("data-tip");
      if (!text) return;
      var item = document.createElement("span");
      item.id = "tie-description-" + i;
      item.textContent = text;
      holder.appendChild(item);
      link.setAttribute("data-tip", text);
      link.removeAttribute("title");
      link.setAttribute("aria-describedby", item.id);
    });
    document.body.appendChild(holder);
    return holder.childElementCount;
  }

  function highlight(on) {
    document.documentElement.classList.toggle("ties-highlighted", on);
    var button = document.querySelector(".ties-toggle");
    if (button) button.setAttribute("aria-pressed", String(on));
  }

  function toggle() {
    var header = document.querySelector(".md-header__inner");
    if (!header) return null;
    var button = header.querySelector(".ties-toggle");
    if (button) return button;
    button = document.createElement("button");
    button.type = "button";
    button.className = "md-header__button md-icon ties-toggle";
    button.setAttribute("aria-label", LABEL);
    button.title = LABEL;
    button.innerHTML = ICON;
    button.addEventListener("click", function () {
      var on = button.getAttribute("aria-pressed") !== "true";
      highlight(on);
      remember(on);
    });
    var before = header.querySelector('form[data-md-component="palette"]') ||
      header.querySelector('label[for="__search"]');
    header.insertBefore(button, before && before.parentElement === header ? before : null);
    return button;
  }

  document.addEventListener("pointerdown", function (e) {
    pointer = e.pointerType || "mouse";
    if (owner && !inside(e.target, owner) && !inside(e.target, tip)) hide();
  }, true);
  document.addEventListener("keydown", function (e) {
    pointer = "keyboard";
    if (e.key === "Escape" && owner) hide();
  });
  document.addEventListener("pointerover", function (e) {
    var link = numberAt(e.target);
    if (link && e.pointerType === "mouse") show(link);
  });
  document.addEventListener("pointerout", function (e) {
    var link = numberAt(e.target);
    if (link && link === owner && e.pointerType === "mouse" && !inside(e.relatedTarget, link)) hideSoon();
  });
  document.addEventListener("focusin", function (e) {
    var link = numberAt(e.target);
    if (link && link.matches(":focus-visible")) show(link);
  });
  document.addEventListener("focusout", function (e) {
    if (owner && e.target === owner) hideSoon();
  });
  // A tap shows the box; a second tap on the same number follows the link.
  document.addEventListener("click", function (e) {
    var link = numberAt(e.target);
    if (!link || e.detail === 0 || (pointer !== "touch" && pointer !== "pen") || link === owner) return;
    e.preventDefault();
    show(link);
  }, true);
  window.addEventListener("resize", function () { if (owner) place(box(), owner); });

  function init() {
    hide();
    var count = describe();
    var button = toggle();
    if (button) button.hidden = count === 0;
    highlight(remembered());
  }

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(init);
  } else {
    init();
  }
})();
