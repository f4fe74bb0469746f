/* The key-value cache of one sequence: a model shape, a context length and a number of key/value
   heads. Every size shown is read from the data file. */
(function () {
  "use strict";
  var W = window.attnWidgets;

  W.register("kv-cache", function (el, data) {
    var model = data.models.length - 1;
    var context = 4;
    var group = 0;
    var plot = W.svg("svg", { viewBox: "0 0 320 150", "class": "widget-svg" });
    W.figure(el).append(plot);
    var shape = W.control(el, "select", "Model shape", data.models.map(function (m) { return m.name; }), function (i) {
      model = i;
      groups = rebuild();
      draw();
    });
    shape.value = String(model);
    var ctx = W.control(el, "range", "Context length", data.contexts.map(function (n) { return n + " tokens"; }), function (i) { context = i; draw(); });
    ctx.value = String(context);
    ctx.setAttribute("aria-valuetext", data.contexts[context] + " tokens");
    var groups = null;

    function rebuild() {
      if (groups) groups.closest(".widget-control").remove();
      var m = data.models[model];
      group = m.groups.length - 1;
      var input = W.control(el, "range", "Key/value heads", m.groups.map(function (g) { return g + " of " + m.h; }), function (i) { group = i; draw(); });
      input.value = String(group);
      input.setAttribute("aria-valuetext", m.groups[group] + " of " + m.h);
      return input;
    }
    groups = rebuild();

    function draw() {
      var m = data.models[model];
      var row = m.bytes[group];
      var most = m.bytes[m.groups.length - 1][data.contexts.length - 1];
      plot.textContent = "";
      row.forEach(function (b, i) {
        var h = b / most * 110;
        plot.append(W.svg("rect", { x: 8 + i * 34, y: 122 - h, width: 26, height: h, "class": i === context ? "widget-mark" : "widget-bar" }),
                    W.svg("text", { x: 21 + i * 34, y: 140, "class": "widget-label" }, data.contexts[i] >= 1024 ? data.contexts[i] / 1024 + "k" : data.contexts[i]));
      });
      plot.append(W.svg("text", { x: 10, y: 16, "class": "widget-value widget-start" }, m.shown[group][context]));
      W.status(el, m.name + " (N = " + m.N + " layers, d_model = " + m.d_model + ", h = " + m.h + "), " + m.groups[group] +
               " key/value heads, " + data.contexts[context] + " tokens: " + m.shown[group][context] +
               " of keys and values per sequence, in " + 8 * data.itemsize + "-bit numbers.");
    }
    draw();
  });
})();
