/* Softmax and the width d_k: one query's weights over ten random keys, at each width, without
   and with the division by sqrt(d_k). Every weight shown is read from the data file. */
(function () {
  "use strict";
  var W = window.attnWidgets;

  W.register("temperature", function (el, data) {
    var width = 0;
    var scaled = false;
    var plot = W.svg("svg", { viewBox: "0 0 320 150", "class": "widget-svg" });
    W.figure(el).append(plot);
    W.control(el, "range", "Width d_k", data.d_k.map(function (d) { return "d_k = " + d; }), function (i) { width = i; draw(); });
    W.control(el, "checkbox", "Divide the scores by \u221ad_k", null, function (on) { scaled = on; draw(); });

    function draw() {
      var kind = scaled ? "scaled" : "unscaled";
      var row = data.weights[kind][width];
      var top = data.top[kind][width];
      plot.textContent = "";
      row.forEach(function (w, j) {
        var x = 8 + j * 31;
        var h = w * 110;
        plot.append(W.svg("rect", { x: x, y: 122 - h, width: 24, height: h, "class": j === top ? "widget-mark" : "widget-bar" }),
                    W.svg("text", { x: x + 12, y: 116 - h, "class": "widget-value", "data-key": j }, w.toFixed(3)),
                    W.svg("text", { x: x + 12, y: 140, "class": "widget-label" }, "k" + (j + 1)));
      });
      W.status(el, "d_k = " + data.d_k[width] + ", " + (scaled ? "scores divided by \u221ad_k" : "raw scores") +
               ": the largest weight, " + row[top].toFixed(3) + ", is on key " + (top + 1) + " of " + data.keys +
               ". All ten: " + row.map(function (w) { return w.toFixed(3); }).join(", ") + ".");
    }
    draw();
  });
})();
