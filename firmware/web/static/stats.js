// The dice statistics drawn by the page as SVG: each face's count with the band fair dice fall in
// (95 %), and Can't Stop's busts met against their exact odds.
(function () {
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The count each face would have if all came up equally often: said alike by the dashed line's
  // label and by the caption under it ("2.7" in both, never "3" beside "(2.7)").
  function expectedText(band) {
    return Number.isInteger(band.expected) ? String(band.expected) : band.expected.toFixed(1);
  }

  function facePlot(group) {
    const width = 360, height = 220, left = 40, bottom = 30, top = 12;
    const top_count = Math.max(group.band.high, ...group.counts, 1);
    const y = (count) => top + (height - top - bottom) * (1 - count / top_count);
    const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": `Faces of ${group.group}: ${group.counts.join(", ")}; fair dice: ${group.band.low.toFixed(0)} to ${group.band.high.toFixed(0)} each` });
    svg.append(el("rect", { x: left, y: y(group.band.high), width: width - left - 8, height: Math.max(1, y(group.band.low) - y(group.band.high)),
      fill: "currentColor", opacity: 0.12 }));
    svg.append(el("line", { x1: left, x2: width - 8, y1: y(group.band.expected), y2: y(group.band.expected), stroke: "currentColor", "stroke-dasharray": "4 3" }));
    const step = (width - left - 8) / 6;
    group.counts.forEach((count, index) => {
      const outside = count < group.band.low || count > group.band.high;
      svg.append(el("rect", { x: left + index * step + step * 0.2, y: y(count), width: step * 0.6, height: y(0) - y(count),
        fill: outside ? "#d55e00" : "#0072b2", "data-face": index + 1, "data-count": count }));
      svg.append(el("text", { x: left + index * step + step / 2, y: height - 10, "text-anchor": "middle", fill: "currentColor", "font-size": 13 }, String(index + 1)));
      svg.append(el("text", { x: left + index * step + step / 2, y: y(count) - 3, "text-anchor": "middle", fill: "currentColor", "font-size": 11 }, String(count)));
    });
    svg.append(el("text", { x: 4, y: y(group.band.expected) + 4, fill: "currentColor", "font-size": 11 }, expectedText(group.band)));
    return svg;
  }

  function bustPlot(bins) {
    const size = 300, pad = 36;
    const at = (share) => pad + (size - 2 * pad) * share;
    const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": "Bust rate met against the exact bust odds" });
    svg.append(el("rect", { x: pad, y: pad, width: size - 2 * pad, height: size - 2 * pad, fill: "none", stroke: "currentColor", opacity: 0.4 }));
    svg.append(el("line", { x1: at(0), y1: size - at(0), x2: at(1), y2: size - at(1), stroke: "currentColor", "stroke-dasharray": "4 3" }));
    const most = Math.max(1, ...bins.map((b) => b.rolls));
    for (const bin of bins.filter((b) => b.rolls)) {
      svg.append(el("circle", { cx: at(bin.odds), cy: size - at(bin.rate), r: 3 + 7 * Math.sqrt(bin.rolls / most), fill: "#0072b2", opacity: 0.8,
        "data-rolls": bin.rolls, "data-busts": bin.busts }));
    }
    for (const tick of [0, 0.5, 1]) {
      svg.append(el("text", { x: at(tick), y: size - 12, "text-anchor": "middle", fill: "currentColor", "font-size": 11 }, `${tick * 100} %`));
      svg.append(el("text", { x: 4, y: size - at(tick) + 4, fill: "currentColor", "font-size": 11 }, `${tick * 100} %`));
    }
    svg.append(el("text", { x: size / 2, y: size - 0, "text-anchor": "middle", fill: "currentColor", "font-size": 11 }, "exact odds of a bust"));
    svg.append(el("text", { x: pad, y: pad - 10, fill: "currentColor", "font-size": 11 }, "busts met"));
    return svg;
  }

  function countsTable(group) {
    const table = document.createElement("table");
    table.className = "counts";
    const head = table.insertRow();
    const body = table.insertRow();
    head.insertCell().textContent = "face";
    body.insertCell().textContent = "count";
    group.counts.forEach((count, index) => {
      head.insertCell().textContent = String(index + 1);
      body.insertCell().textContent = String(count);
    });
    return table;
  }

  function tableDice(found) {
    const said = [];
    const line = (text) => { const p = document.createElement("p"); p.textContent = text; said.push(p); };
    if (found.problem) line(found.problem);
    const sets = Object.entries(found.sets);
    if (!sets.length && !found.problem) line("No examples yet: they come with the throws played on.");
    for (const [name, counts] of sets) {
      line(`${name}: ${counts.reduce((a, b) => a + b, 0)} examples`);
      said.push(countsTable({ counts }));
    }
    const layer = found.layer;
    if (layer) {
      const percent = (share) => `${(100 * share).toFixed(1)} %`;
      const why = layer.dropped ? `, but it was dropped in play: ${layer.dropped}. It is` :
        layer.fewest_of_a_face < 0 ? ", before its faces were counted: it is refitted when the companion starts, and" :
        layer.fewest_of_a_face < 10 ? `, but one face has only ${layer.fewest_of_a_face} examples (10 are needed), so it is` :
        ", so it is";
      line(`Tuned layer for ${layer.dice_set}, fitted on ${layer.examples} examples: held-out throws read right ` +
        `${percent(layer.held_out_right)} against ${percent(layer.shipped_right)} by the shipped one${why} ` +
        (layer.in_use ? "in use." : "not in use."));
    }
    return said;
  }

  fetch("stats.json").then((response) => response.json()).then((data) => {
    if (data.error) {
      document.getElementById("summary").textContent = data.error;
      return;
    }
    document.getElementById("summary").textContent = data.summary;
    const groups = document.getElementById("groups");
    for (const group of data.groups) {
      const section = document.createElement("section");
      section.className = "group";
      const title = document.createElement("h2");
      title.textContent = `${group.group}: ${group.dice} thrown`;
      const sentence = document.createElement("p");
      sentence.textContent = group.sentence;
      const figure = document.createElement("figure");
      figure.className = "plot";
      const caption = document.createElement("figcaption");
      caption.textContent = `Dashed: the count each face would have if all came up equally often (${expectedText(group.band)}); grey: where 95 % of fair sets put each face. With six faces, one bar outside now and then is expected; the sentence above weighs them all.`;
      figure.append(facePlot(group), caption);
      section.append(title, sentence, countsTable(group), figure);
      groups.append(section);
    }
    const busts = data.bust.reduce((sum, bin) => sum + bin.rolls, 0);
    if (busts) {
      document.getElementById("bust").append(bustPlot(data.bust));
    } else {
      document.getElementById("bust").textContent = "No roll of Can't Stop read yet.";
    }
    document.getElementById("table-dice").append(...tableDice(data.table_dice));
  });
})();
