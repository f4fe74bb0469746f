/* Where each head looks: the trained model's attention weights on four held-out sequences.
   Pick a query token (hover, focus or tap); each head's row of weights is read from the data file. */
(function () {
  "use strict";
  var W = window.attnWidgets;
  var KINDS = [["encoder", "Encoder self-attention"], ["decoder", "Decoder self-attention"], ["cross", "Cross-attention"]];

  W.register("attention", function (el, data) {
    var seq = 0;
    var kind = 0;
    var query = 0;
    var figure = W.figure(el);
    figure.removeAttribute("aria-hidden");
    W.control(el, "select", "Sequence", data.source.map(function (s) { return "source " + s.join(" "); }), function (i) { seq = i; draw(); });
    W.control(el, "select", "Attention", KINDS.map(function (k) { return k[1]; }), function (i) { kind = i; query = 0; draw(); });

    function draw() {
      var name = KINDS[kind][0];
      var queries = name === "encoder" ? data.source[seq] : data.target[seq];
      var keys = name === "decoder" ? data.target[seq] : data.source[seq];
      figure.textContent = "";
      var row = W.make("div", { "class": "widget-tokens", role: "group", "aria-label": "Query token" });
      row.append(W.make("span", { "class": "widget-row-label" }, "query"));
      queries.forEach(function (t, i) {
        var b = W.make("button", { type: "button", "class": "widget-token", "aria-pressed": String(i === query), "data-query": i }, t);
        function pick() { if (query !== i) { query = i; draw(); el.querySelector('[data-query="' + i + '"]').focus(); } }
        b.addEventListener("click", pick);
        b.addEventListener("focus", pick);
        b.addEventListener("pointerenter", function (e) { if (e.pointerType === "mouse") pick(); });
        row.append(b);
      });
      figure.append(row);
      var said = [];
      for (var head = 0; head < data.heads; head++) {
        var weights = data.maps[name][seq][head][query];
        var line = W.make("div", { "class": "widget-tokens", "aria-hidden": "true", "data-head": head });
        line.append(W.make("span", { "class": "widget-row-label" }, "head " + head));
        weights.forEach(function (w, j) {
          var cell = W.make("span", { "class": "widget-cell" });
          var bar = W.make("span", { "class": "widget-cellbar" });
          bar.style.height = Math.round(w * 100) + "%";
          cell.append(bar, W.make("span", { "class": "widget-key" }, keys[j]), W.make("span", { "class": "widget-value" }, w.toFixed(2)));
          line.append(cell);
        });
        figure.append(line);
        said.push("head " + head + ": " + weights.map(function (w) { return w.toFixed(2); }).join(", "));
      }
      W.status(el, KINDS[kind][1] + ", query " + queries[query] + " at position " + query + "; weights on " +
               keys.join(" ") + ", " + said.join("; ") + ".");
    }
    draw();
  });
})();
