/* Interactive figures. Each <div class="widget" data-widget="NAME" data-src="FILE"> is drawn by
   the script registered under NAME, from the checked data file the page carries right after it
   (<div class="widget-data" hidden data-src="FILE" data-values="JSON">): no fetch, so it works
   from file:// too. A widget looks its values up in that file and computes none. Until a script
   draws it (or if none does), the div shows its text alternative. Runs on every page Material
   shows, instant navigation included (document$). */
(function () {
  "use strict";

  var drawers = {};
  var count = 0;
  var SVG = "http://www.w3.org/2000/svg";

  function data(el) {
    var src = el.getAttribute("data-src");
    var blocks = document.querySelectorAll("div.widget-data[data-values]");
    for (var i = 0; i < blocks.length; i++) {
      if (blocks[i].getAttribute("data-src") === src) return JSON.parse(blocks[i].getAttribute("data-values"));
    }
    return null;
  }

  function make(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* A labelled control in the widget's control row: a range over 0 .. n - 1, or a select. */
  function control(el, kind, label, options, onchange) {
    var id = "widget-" + (++count);
    var box = make("div", { "class": "widget-control" });
    box.append(make("label", { "for": id }, label));
    var input;
    if (kind === "range") {
      input = make("input", { id: id, type: "range", min: "0", max: String(options.length - 1), step: "1", value: "0" });
      input.addEventListener("input", function () { input.setAttribute("aria-valuetext", options[+input.value]); onchange(+input.value); });
      input.setAttribute("aria-valuetext", options[0]);
    } else if (kind === "checkbox") {
      input = make("input", { id: id, type: "checkbox" });
      input.addEventListener("change", function () { onchange(input.checked); });
      box.prepend(input);
    } else {
      input = make("select", { id: id });
      options.forEach(function (text, i) { input.append(make("option", { value: String(i) }, text)); });
      input.addEventListener("change", function () { onchange(+input.value); });
    }
    if (kind !== "checkbox") box.append(input);
    el.querySelector(".widget-controls").append(box);
    return input;
  }

  function start(el) {
    var draw = drawers[el.getAttribute("data-widget")];
    if (!draw || el.hasAttribute("data-ready")) return;
    var values = data(el);
    if (!values) return;
    var caption = el.textContent.trim().replace(/\s+/g, " ");
    el.textContent = "";
    el.setAttribute("data-ready", "");
    el.setAttribute("role", "group");
    el.append(make("p", { "class": "widget-caption" }, caption), make("div", { "class": "widget-controls" }),
              make("div", { "class": "widget-figure", "aria-hidden": "true" }),
              make("p", { "class": "widget-status", "aria-live": "polite" }));
    el.setAttribute("aria-label", caption);
    draw(el, values);
  }

  function init() {
    document.querySelectorAll("div.widget[data-widget]").forEach(start);
  }

  window.attnWidgets = {
    make: make,
    svg: svg,
    control: control,
    status: function (el, text) { el.querySelector(".widget-status").textContent = text; },
    figure: function (el) { return el.querySelector(".widget-figure"); },
    register: function (name, draw) {
      drawers[name] = draw;
      document.querySelectorAll('div.widget[data-widget="' + name + '"]').forEach(start);
    }
  };

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(init);
  } else {
    document.addEventListener("DOMContentLoaded", init);
  }
})();
