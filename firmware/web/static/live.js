// The live board: ask the companion's page what changed, twice a second, and redraw only then.
(function () {
  const section = document.getElementById("live");
  const every = Number(section.dataset.pollMs) || 500;
  let version = null;
  let etag = null;

  function appendPieces(parent, pieces, between) {  // each kept on one line: the words wrap only between them
    pieces.forEach((words, index) => {
      const piece = document.createElement("span");
      piece.className = "piece";
      piece.textContent = words;
      if (index) parent.append(between);
      parent.append(piece);
    });
  }

  function showAbout(game) {  // "Ann, Bob · standard rules, 3 columns to win · playing", each option whole
    const about = document.getElementById("about");
    about.replaceChildren();
    if (!game) return;
    about.append(game.players.join(", "));
    if (game.rules) {
      about.append(" · ");
      appendPieces(about, game.rules.split(", "), ", ");
    }
    about.append(" · " + (game.status === "playing" ? "playing" : game.status + (game.winner ? ", won by " + game.winner : "")));
  }

  function show(data) {
    const message = document.getElementById("message");
    const game = data.game;
    document.getElementById("title").textContent = game ? game.title + " #" + game.id : "Dice Companion";
    document.title = game ? `${game.title} #${game.id} · Dice Companion` : "Dice Companion";
    showAbout(game);
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
        appendPieces(dd, value, " ");
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
