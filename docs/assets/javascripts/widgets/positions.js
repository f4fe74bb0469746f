/* Positions against the offset k between a query and a key: the dot product of two sinusoidal
   encodings, and the angle RoPE turns five feature pairs by. Every value is read from the data file. */
(function () {
  "use strict";
  var W = window.attnWidgets;

  W.register("positions", function (el, data) {
    var k = 0;
    var plot = W.svg("svg", { viewBox: "0 0 320 210", "class": "widget-svg" });
    W.figure(el).append(plot);
    W.control(el, "range", "Offset k", data.offsets.map(function (o) { return "k = " + o; }), function (i) { k = i; draw(); });
    var top = Math.max.apply(null, data.dot);
    var low = Math.min.apply(null, data.dot);
    function px(i) { return 10 + i * 300 / (data.offsets.length - 1); }
    function py(v) { return 10 + (top - v) * 80 / (top - low); }
    var points = data.dot.map(function (v, i) { return px(i) + "," + py(v); }).join(" ");

    function draw() {
      plot.textContent = "";
      plot.append(W.svg("polyline", { points: points, "class": "widget-line" }),
                  W.svg("circle", { cx: px(k), cy: py(data.dot[k]), r: 4, "class": "widget-mark" }),
                  W.svg("text", { x: 160, y: 108, "class": "widget-label" }, "PE(0) \u00b7 PE(k) = " + data.dot[k].toFixed(3)));
      data.pairs.forEach(function (pair, j) {
        var cx = 32 + j * 64;
        plot.append(W.svg("circle", { cx: cx, cy: 150, r: 24, "class": "widget-ring" }),
                    W.svg("line", { x1: cx, y1: 150, x2: cx + 24 * data.x[k][j], y2: 150 - 24 * data.y[k][j], "class": "widget-arrow" }),
                    W.svg("text", { x: cx, y: 190, "class": "widget-label" }, "pair " + pair),
                    W.svg("text", { x: cx, y: 204, "class": "widget-value" }, data.angle[k][j].toFixed(1) + "\u00b0"));
      });
      W.status(el, "Offset k = " + data.offsets[k] + ": the sinusoidal encodings of positions 0 and k have dot product " +
               data.dot[k].toFixed(3) + "; RoPE turns " + data.pairs.map(function (pair, j) {
                 return "pair " + pair + " by " + data.angle[k][j].toFixed(1) + " degrees";
               }).join(", ") + ".");
    }
    draw();
  });
})();
