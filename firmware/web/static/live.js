// The live board: ask the companion's page what changed, twice a second, and redraw only then.
(function () {
  const section = document.getElementById("live");
  const every = Number(section.dataset.pollMs) || 500;
  let version = null;
  let etag = null;

  function show(data) {
    const message = document.getElementById("message");
    const game = data.game;
    document.getElementById("title").textContent = game ? game.title + " #" + game.id : "Dice Companion";
    document.title = game ? `${game.title} #${game.id} · Dice Companion` : "Dice Companion";
    document.getElementById("about").textContent = game
      ? game.players.join(", ") + " · " + game.rules + " · " + (game.status === "playing" ? "playing" : game.status + (game.winner ? ", won by " + game.winner : ""))
      : "";
    message.hidden = !data.message;
    message.textContent = data.message || "";
    document.getElementById("board").innerHTML = data.svg || "";  // drawn by the companion, names escaped
    const facts = document.getElementById("facts");
    facts.replaceChildren();
    for (const [label, value] of data.facts || []) {
      const dt = document.createElement("dt");
      dt.textContent = label;
      const dd = document.createElement("dd");
      if (Array.isArray(value)) {  // pieces, each kept on one line: the value wraps only between them
        value.forEach((words, index) => {
          const piece = document.createElement("span");
          piece.className = "piece";
          piece.textContent = words;
          if (index) dd.append(" ");
          dd.append(piece);
        });
      } else {
        dd.textContent = value;
      }
      facts.append(dt, dd);
    }
    const moves = document.getElementById("moves");
    moves.hidden = !(data.moves && data.moves.length);
    moves.querySelector("ul").replaceChildren(...(data.moves || []).map((words) => {
      const item = document.createElement("li");
      item.textContent = words;
      return item;
    }));
    section.dataset.version = data.version;
  }

  async function poll() {
    try {
      const response = await fetch("live.json", { headers: etag ? { "If-None-Match": etag } : {}, cache: "no-cache" });
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        const data = await response.json();
        if (data.version !== version) {
          version = data.version;
          show(data);
        }
      } else if (response.status !== 304) {
        const data = await response.json().catch(() => ({}));
        show({ version: "error", message: data.error || "The companion's page answered " + response.status });
      }
    } catch (error) {
      show({ version: "offline", message: "The companion cannot be reached; trying again." });
      version = null;
    }
    setTimeout(poll, every);
  }
  poll();
})();
