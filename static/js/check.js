/* The check of a deal as it is entered, on the phone: the same rules and the
 * same words as the server's (games/pages/entry.py and games/engine/), so every
 * tap is answered at once, with or without a network; the server judges the
 * save again. No page here: the entry's script (entry.js) shows the answer, and
 * Node's test runner runs this file over the cases the engine's tests run
 * (tests/cases/entry_checks.json), so the two can't drift apart.
 *
 * `config` is what games/pages/phone.py hands the page; `fields` the entry's form
 * fields by name ("hearts-0", "points-2", "taker-QS"). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.ScorekeeperCheck = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const WHOLE = /^[-−]?[0-9]+$/;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  }

  function capfirst(s) {
    return s ? s[0].toUpperCase() + s.slice(1) : s;
  }

  // As games.engine.numbers.whole_number: ASCII digits and a minus, at most 9 digits.
  function wholeNumber(value, digits) {
    const most = digits || 9;
    const s = String(value).trim();
    if (s.length > most + 1 || !WHOLE.test(s)) return null;
    if (s.replace(/^[-−]/, "").length > most) return null;
    return Number(s.replace("−", "-"));
  }

  function joinNames(text, names) {
    if (names.length <= 1) return names.join("");
    return fill(text.and, { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
  }

  function bySortOrder(config, codes) {
    return codes.slice().sort((a, b) => config.order.indexOf(a) - config.order.indexOf(b));
  }

  // As typed: trimmed and no longer than anybody types (games/forms/deals.py: Typed).
  function typed(fields, name) {
    const value = fields[name];
    return value === undefined || value === null ? "" : String(value).trim().slice(0, 20);
  }

  /* What the entry form reads (games/forms/deals.py: DealForm.clean and _fill_remainder). */
  function read(config, mode, fields) {
    const players = config.names.length;
    const seats = config.names.map((_, seat) => seat);
    const entry = {
      mode: mode,
      hearts: seats.map((s) => typed(fields, "hearts-" + s)),
      points: seats.map((s) => typed(fields, "points-" + s)),
      takers: {},
      filled: null,
    };
    const assigned = mode === "cards" ? config.entryOrder : config.entryOrder.filter((c) => config.specials.includes(c));
    for (const code of assigned) {
      const seat = wholeNumber(typed(fields, "taker-" + code), 1);
      entry.takers[code] = seat !== null && seat >= 0 && seat < players ? seat : null;
    }
    if (mode === "counts" || mode === "points") {
      const values = mode === "counts" ? entry.hearts : entry.points;
      const total = mode === "counts" ? config.hearts : config.total;
      const empty = seats.filter((s) => values[s] === "");
      const numbers = values.filter((v) => v !== "").map((v) => wholeNumber(v));
      if (empty.length === 1 && !numbers.includes(null)) {
        const rest = total - numbers.reduce((sum, n) => sum + n, 0);
        if (!(mode === "counts" && rest < 0)) {
          values[empty[0]] = String(rest);
          entry.filled = empty[0];
        }
      }
    }
    return entry;
  }

  /* The numbers as typed, by seat (null where none can be read); `missing` gets the
   * seats with nothing typed, `problems` what was typed and is no number. */
  function readNumbers(config, entry, what, problems, missing) {
    const values = what === "hearts" ? entry.hearts : entry.points;
    return values.map((value, seat) => {
      if (value === "") {
        missing.push(seat);
        return null;
      }
      const number = wholeNumber(value);
      if (number === null) {
        const wrong = what === "hearts" ? config.text.heartsNotANumber : config.text.notANumber;
        problems.push(fill(wrong, { name: config.names[seat], value: value.slice(0, 10) }));
      }
      return number;
    });
  }

  /* "Still to enter: hearts for Ann and Ben; who took Q♠." (pages/entry.py: still_to_enter) */
  function stillToEnter(config, mode, missingSeats, missingCards) {
    const text = config.text;
    const parts = [];
    if (missingSeats.length) {
      const who = joinNames(text, missingSeats.map((seat) => config.names[seat]));
      parts.push(fill(mode === "counts" ? text.heartsFor : text.pointsFor, { names: who }));
    }
    if (missingCards.length && missingCards.length <= text.cardsNamed) {
      const labels = bySortOrder(config, missingCards).map((c) => config.cards[c].label);
      parts.push(fill(text.whoTook, { cards: joinNames(text, labels) }));
    } else if (missingCards.length) {
      parts.push(fill(text.whoTookCount[missingCards.length], { count: missingCards.length }));
    }
    return parts.length ? fill(text.stillToEnter, { what: parts.join("; ") }) : "";
  }

  function cardsBySeat(config, entry) {
    const perSeat = config.names.map(() => []);
    for (const code of Object.keys(entry.takers)) {
      if (entry.takers[code] !== null) perSeat[entry.takers[code]].push(code);
    }
    return perSeat;
  }

  /* Could some way of dealing out the valued cards give exactly these points?
   * (rules.points_feasible) */
  function pointsFeasible(config, points) {
    const players = points.length;
    const specials = config.specials;
    const hearts = config.heartValues;
    const owners = specials.map(() => 0);
    for (;;) {
      const need = points.slice();
      specials.forEach((code, i) => (need[owners[i]] -= config.values[code]));
      if (need.every((n) => n >= 0)) {
        if (!config.spot) {
          if (need.reduce((a, b) => a + b, 0) === hearts.length) return true;
        } else if (heartsCanMake(hearts, need.sort((a, b) => b - a), new Map())) {
          return true;
        }
      }
      // The next way of giving out the specials (counting in base `players`).
      let i = 0;
      while (i < owners.length && owners[i] === players - 1) owners[i++] = 0;
      if (i === owners.length) return false;
      owners[i] += 1;
    }
  }

  function heartsCanMake(hearts, need, seen) {
    if (!hearts.length) return need.every((n) => n === 0);
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    if (sum(need) !== sum(hearts)) return false;
    const key = hearts.length + ":" + need.join(",");
    if (seen.has(key)) return seen.get(key);
    const first = hearts[0];
    const rest = hearts.slice(1);
    const tried = new Set();
    let found = false;
    for (let i = 0; i < need.length && !found; i++) {
      const n = need[i];
      if (n >= first && !tried.has(n)) {
        tried.add(n);
        const next = need.slice();
        next[i] -= first;
        found = heartsCanMake(rest, next.sort((a, b) => b - a), seen);
      }
    }
    seen.set(key, found);
    return found;
  }

  function infeasible(config, points) {
    const shown = config.names.map((name, seat) => name + " " + points[seat]).join(" / ");
    const positive = config.specials.filter((code) => config.values[code] > 0);
    if (positive.length) {
      const cards = joinNames(config.text, positive.map((c) => config.cards[c].label));
      return fill(config.text.infeasibleCards, { points: shown, cards: cards });
    }
    return fill(config.text.infeasible, { points: shown });
  }

  function moonShooter(config, entry, raw, perSeat, hearts) {
    const moon = config.moonValue;
    if (config.moon === "none" || moon <= 0) return null;
    const bonus = config.bonus;
    if (entry.mode === "points") {
      for (let seat = 0; seat < raw.length; seat++) {
        const p = raw[seat];
        if ((p === moon || p === moon + bonus) && raw.every((q, s) => s === seat || q === 0 || q === bonus)) return seat;
      }
      return null;
    }
    const positive = Object.keys(config.values).filter((c) => config.values[c] > 0);
    for (let seat = 0; seat < raw.length; seat++) {
      const taken = new Set(perSeat[seat]);
      if (entry.mode === "cards") {
        if (positive.every((c) => taken.has(c))) return seat;
      } else if (hearts[seat] === config.hearts && positive.filter((c) => !c.endsWith("H")).every((c) => taken.has(c))) {
        return seat;
      }
    }
    return null;
  }

  function applyMoon(config, raw, shooter) {
    if (shooter === null) return raw.slice();
    const moon = config.moonValue;
    return raw.map((points, seat) => {
      if (seat === shooter) return config.moon === "others" ? points - moon : points - 2 * moon;
      return config.moon === "others" ? points + moon : points;
    });
  }

  function moonText(config, shooter) {
    if (shooter === null) return null;
    const others = config.names.filter((_, seat) => seat !== shooter);
    const template = config.moon === "others" ? config.text.moonOthers : config.text.moonSelf;
    return fill(template, { shooter: config.names[shooter], moon: config.moonValue, others: joinNames(config.text, others) });
  }

  /* The engine's check of a readable entry (rules.check_deal). */
  function judge(config, entry, numbers) {
    const players = config.names.length;
    const raw = config.names.map(() => 0);
    const problems = [];
    let missing = [];
    const perSeat = cardsBySeat(config, entry);
    let counted;
    if (entry.mode === "points") {
      counted = numbers.reduce((a, b) => a + b, 0);
      if (counted !== config.total) {
        problems.push(fill(config.text.pointsSum, { counted: counted, total: config.total }));
      } else if (!pointsFeasible(config, numbers)) {
        problems.push(infeasible(config, numbers));
      } else {
        numbers.forEach((n, seat) => (raw[seat] = n));
      }
    } else {
      if (entry.mode === "counts") {
        numbers.forEach((count, seat) => {
          if (count < 0) problems.push(fill(config.text.heartsNotWhole, { name: config.names[seat] }));
          else raw[seat] += count;
        });
        const counted = raw.reduce((a, b) => a + b, 0);
        if (!problems.length && counted !== config.hearts) {
          problems.push(fill(config.text.heartsSum, { counted: counted, hearts: config.hearts }));
        }
      }
      for (let seat = 0; seat < players; seat++) {
        for (const code of perSeat[seat]) raw[seat] += config.values[code] || 0;
      }
      const owed = entry.mode === "cards" ? config.order : config.specials;
      missing = owed.filter((c) => entry.takers[c] === null || entry.takers[c] === undefined);
      counted = raw.reduce((a, b) => a + b, 0);
    }
    if (problems.length || missing.length) {
      return { counted: counted, problems: problems, missing: missing, raw: null, scores: null, moon: null };
    }
    const shooter = moonShooter(config, entry, raw, perSeat, numbers);
    return { counted: counted, problems: [], missing: [], raw: raw, scores: applyMoon(config, raw, shooter), moon: shooter };
  }

  /* The whole check (DealEntry.check): what the phone shows under the entry. */
  function check(config, mode, fields) {
    const entry = read(config, mode, fields);
    const problems = [];
    const missingSeats = [];
    const numbers =
      mode === "cards" ? [] : readNumbers(config, entry, mode === "counts" ? "hearts" : "points", problems, missingSeats);
    let answer;
    if (problems.length || missingSeats.length) {
      const values = (mode === "points" ? entry.points : entry.hearts).map((v) => wholeNumber(v));
      let counted = values.filter((n) => n !== null).reduce((a, b) => a + b, 0);
      let said = problems;
      let missing = [];
      if (mode === "counts") {
        for (const code of Object.keys(entry.takers)) if (entry.takers[code] !== null) counted += config.values[code];
        missing = config.specials.filter((c) => entry.takers[c] === null || entry.takers[c] === undefined);
        // Too many hearts already: that is the problem, not the ones still to enter.
        const hearts = values.filter((n) => n !== null && n > 0).reduce((a, b) => a + b, 0);
        if (hearts > config.hearts) said = [fill(config.text.heartsSum, { counted: hearts, hearts: config.hearts })];
      }
      answer = { counted: counted, problems: said, missing: missing, raw: null, scores: null, moon: null };
    } else {
      answer = judge(config, entry, numbers);
    }
    const perSeat = cardsBySeat(config, entry);
    return {
      counted: answer.counted,
      total: config.total,
      valid: answer.raw !== null,
      problems: answer.problems.map(capfirst),
      toEnter: answer.raw ? "" : stillToEnter(config, mode, missingSeats, answer.missing),
      raw: answer.raw,
      scores: answer.scores,
      moonText: answer.raw ? moonText(config, answer.moon) : null,
      filled: entry.filled,
      filledValue: entry.filled === null ? null : Number((mode === "counts" ? entry.hearts : entry.points)[entry.filled]),
      taken: config.names.map((name, seat) => ({
        name: name,
        cards: perSeat[seat],
        points: perSeat[seat].reduce((sum, code) => sum + config.values[code], 0),
      })),
    };
  }

  return { check: check, fill: fill, capfirst: capfirst, wholeNumber: wholeNumber };
});
