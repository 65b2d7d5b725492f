#!/usr/bin/env node
// An independent implementation of Zooloretto's end-of-game scoring, written in JavaScript from the
// French rulebook ("Fin de partie") and the published enclosure values — not from zoospec's spec —
// speaking zoospec's conformance protocol (docs/conformance.md) on standard input and output:
//
//   zoospec conform zooloretto --adapter "node examples/adapters/zooloretto-score.js"
//
// It answers `score` (a player's points) and `end` (whether the game is over). States arrive in
// zoospec's JSON state format (`zoospec state-schema zooloretto`); this file maps them to its own model.
'use strict';
const readline = require('readline');

// The zoo board and the expansion boards: spaces, points when full, points with one space free.
const ENCLOSURES = {
  p4: { spaces: 4, full: 5, oneFree: 4 },
  p5: { spaces: 5, full: 8, oneFree: 5 },
  p6: { spaces: 6, full: 10, oneFree: 6 },
  x1: { spaces: 5, full: 9, oneFree: 5, extension: true },
  x2: { spaces: 5, full: 9, oneFree: 5, extension: true },
};
const BARN = 'barn';

function sum(values) { return values.reduce((a, b) => a + b, 0); }

// One player's zoo, in this implementation's own terms.
function zooOf(state, seat) {
  const herd = state.herd[seat], stalls = state.stalls[seat], bought = state.bought[seat];
  const enclosures = Object.entries(ENCLOSURES)
    .filter(([name, e]) => !e.extension || bought[name])
    .map(([name, e]) => ({
      ...e,
      animals: sum(Object.values(herd[name])),
      stallKinds: Object.keys(stalls[name]).filter((k) => stalls[name][k] > 0),
    }));
  const barnSpecies = Object.keys(herd[BARN]).filter((s) => herd[BARN][s] > 0);
  const barnStalls = Object.keys(stalls[BARN]).filter((k) => stalls[BARN][k] > 0);
  return { enclosures, barnSpecies, barnStalls };
}

// Fin de partie: each enclosure scores its larger number when full, its smaller one with exactly
// one free space, otherwise 1 point per animal provided a stall stands beside it; each different
// kind of stall beside the enclosures scores 2; each kind of animal or stall in the barn costs 2.
function score(state, seat) {
  const zoo = zooOf(state, seat);
  let points = 0;
  const kinds = new Set();
  for (const e of zoo.enclosures) {
    const free = e.spaces - e.animals;
    if (free === 0) points += e.full;
    else if (free === 1) points += e.oneFree;
    else if (e.stallKinds.length > 0) points += e.animals;
    e.stallKinds.forEach((k) => kinds.add(k));
  }
  points += 2 * kinds.size;
  points -= 2 * (zoo.barnSpecies.length + zoo.barnStalls.length);
  return points;
}

function answer(req) {
  switch (req.op) {
    case 'hello':
      return { protocol: 1, name: 'zooloretto-score.js (an independent scoring, Node ' + process.version + ')', ops: ['score', 'end'] };
    case 'score':
      if (req.rule !== 'zlr.score.total') return { error: 'only the total score is implemented, not ' + req.rule };
      return { points: score(req.state, String(req.args.z)) };
    case 'end':
      return { over: req.state.phase === 'over' };
    default:
      return { error: 'not implemented: ' + req.op };
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: 'not JSON' }) + '\n');
    return;
  }
  process.stdout.write(JSON.stringify({ id: req.id, ...answer(req) }) + '\n');
});
