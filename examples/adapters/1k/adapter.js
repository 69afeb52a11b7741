#!/usr/bin/env node
// A thousand-engine/1 adapter for the npm package `1k` (version 0.0.11), for `thousand conform`.
//
//   thousand conform --engine "node examples/adapters/1k/adapter.js" --ruleset 1k
//
// It speaks the protocol of docs/reference/protocol.md (JSON lines on stdin/stdout) and does
// nothing but translate: every legal action it lists is one the library's own validator
// (`can` in dist/src/validators/game.validators.js) accepts, and every action it is asked to
// apply goes to the library's public API (bid, pass, shareStock, increaseBid, declareBomb,
// throwCard). Where the library and the protocol see a deal differently, the adapter says so in
// the handshake's capabilities (`projection`) instead of pretending; see
// docs/reference/1k-findings.md.
'use strict';

// 1k 0.0.11 prints debugging lines ("test!", "test2!", "test3!") with console.log while it
// resolves a trick. Standard output belongs to the protocol, so the library's console goes to
// standard error, and replies are written with process.stdout.write.
const stdout = process.stdout;
for (const name of ['log', 'info', 'debug', 'warn']) {
  console[name] = (...args) => process.stderr.write(args.map(String).join(' ') + '\n');
}

const readline = require('readline');
const oneK = require('1k');
const { can } = require('1k/dist/src/validators/game.validators');
const acts = require('1k/dist/src/game.actions');
const { hasMarriageOfSuit, isKingOrQueen } = require('1k/dist/src/helpers/cards.helpers');
const { getBidWinner, getHighestBid } = require('1k/dist/src/helpers/bid.helpers');
const battle = require('1k/dist/src/helpers/battle.helpers');
const { getPlayerTotalPoints, getTotalBombsByPlayer } = require('1k/dist/src/helpers/players.helpers');
const libVersion = require('1k/package.json').version;

const PROTOCOL = 'thousand-engine/1';
const { Phase } = oneK;
const SUITS = { S: '\u2660', C: '\u2663', D: '\u2666', H: '\u2665' };
const SUIT_OF = Object.fromEntries(Object.entries(SUITS).map(([k, v]) => [v, k]));
const BID_VALUES = [];
for (let v = 110; v <= 300; v += 10) BID_VALUES.push(v);
// set_state keys the 1k ruleset keeps only as inert counters (1k has no bolts and no barrel falls).
const INERT_STATE = new Set(['bolts', 'barrel_falls']);

const CAPABILITIES = {
  explicit_deal: true,
  legal_actions: true,
  results: true,
  set_state: true,
  players: [3],
  library: `1k@${libVersion}`,
  projection: {
    deal: '1k deals from its own shuffled deck; the adapter installs setCustomShufflingMethod and hands it ' +
      'the deck that gives the requested hands (7 cards to each player in 1k order, then 3 to the musik).',
    seats: 'the seat on the dealer\'s left is 1k\'s player on the hundred, registered first; 1k has no dealer ' +
      'of its own and moves the hundred on by the number of entries on the sheet.',
    'take-talon': '1k gives the musik to the declarer by itself (ASSIGN_STOCK); the 1k ruleset has no such action.',
    announce: '1k lets the declarer raise (increaseBid) at any time from the end of the auction to his first lead, ' +
      'as often as he likes; the adapter offers it once, after the cards are passed, as the protocol\'s ' +
      'announce (value = contract: no raise). Raises while passing, and a bomb after the announcement, are ' +
      'possible in 1k but not offered.',
    marriage: '1k declares a marriage exactly when the king or queen of a held pair is led; a play whose ' +
      'marriage flag says otherwise is rejected, since throwCard cannot do it.',
    set_state: 'scores become the players\' battlePoints as [score, 0, 0], which keeps 1k\'s rotation; ' +
      'bolts and barrel_falls are accepted and ignored (1k has neither).',
    results: 'a bomb\'s declarer is written null by 1k and reported as delta 0; a deal 1k cancels for a hand ' +
      'under 18 points leaves no entry in 1k and is reported as a row of zeros.',
  },
  not_supported: ['players other than 3', 'raising the contract before all cards are passed',
    'a bomb after the contract is announced'],
};

const toLib = (c) => {
  const m = /^(10|[9JQKA])([SCDH])$/i.exec(String(c));
  if (!m) throw new Error(`not a card: ${c}`);
  return m[1].toUpperCase() + SUITS[m[2].toUpperCase()];
};
const fromLib = (c) => {
  const m = /^(10|[9JQKA])(.)$/u.exec(c);
  return m[1] + SUIT_OF[m[2]];
};

class Engine {
  constructor() {
    this.t = null;
  }

  // ------------------------------------------------------------------ lifecycle
  newGame(players, dealer) {
    if (players.length !== 3) throw new Error('1k plays three-handed only');
    if (!(dealer >= 0 && dealer < 3)) throw new Error(`bad dealer ${dealer}`);
    // 1k player i is seat order[i]: the player on the hundred first (the dealer's left), then clockwise.
    this.order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer];
    this.ids = this.order.map((s) => `seat${s}`);
    this.seatOf = Object.fromEntries(this.ids.map((id, i) => [id, this.order[i]]));
    this.idOf = {};
    this.ids.forEach((id, i) => { this.idOf[this.order[i]] = id; });
    this.rows = [];
    this.pendingDeal = null;
    this.announced = false; // the protocol's announce made in this deal (see CAPABILITIES.projection)
    this.shown = false; // 1k went through FLIP_STOCK in this deal
    this.bombed = null; // the contract a bomb gave up, read before DECLARE_BOMB clears the bids
    this.t = oneK.initializeGame();
    this.wire();
    this.t.init();
    for (const id of this.ids) {
      if (!this.t.registerPlayer(id)) throw new Error(`1k refused to register ${id}`);
    }
    if (!this.pendingDeal) throw new Error(`1k did not ask for a deal (phase ${this.state().phase})`);
  }

  setState(state) {
    const st = this.state();
    if (st.phase !== Phase.DEALING_CARDS_IN_PROGRESS || this.rows.length) {
      throw new Error('set_state only before the first deal');
    }
    for (const [k, v] of Object.entries(state)) {
      if (k !== 'score' && !INERT_STATE.has(k)) throw new Error(`1k keeps no ${k}`);
      if (!Array.isArray(v) || v.length !== 3) throw new Error(`${k} needs one value per seat`);
    }
    const score = state.score || [0, 0, 0];
    // A game that starts from given scores: 1k's own state, as its tests and bot build it.
    const players = this.ids.map((id) => {
      const s = score[this.seatOf[id]];
      return { id, battlePoints: s ? [s, 0, 0] : [] };
    });
    this.pendingDeal = null;
    this.t = oneK.initializeGame({ ...st, players, phase: Phase.DEALING_CARDS_START });
    this.wire();
    this.t.init();
    if (!this.pendingDeal) throw new Error('1k did not ask for a deal after set_state');
  }

  wire() {
    this.t.setCustomShufflingMethod((_deck, cb) => { this.pendingDeal = cb; });
    this.t.events.addListener('phaseUpdated', (next, isFirst) => {
      if (isFirst) this.onPhase(this.state());
      next();
    });
  }

  onPhase(st) {
    if (st.phase === Phase.FLIP_STOCK) {
      this.shown = true;
    } else if (st.phase === Phase.NOT_ENOUGHT_CARD_POINTS) {
      this.pushRow(st, [0, 0, 0], null, null);
    } else if (st.phase === Phase.BATTLE_RESULTS_ANNOUNCEMENT) {
      const contract = { bid: getHighestBid(st.bid).bid, player: getBidWinner(st.bid).player };
      this.pushRow(st, this.lastEntries(st), st, contract);
    } else if (st.phase === Phase.BOMB_DECLARED) {
      // DECLARE_BOMB clears the bids: the contract is the one read just before the bomb.
      this.pushRow(st, this.lastEntries(st), null, this.bombed);
    }
  }

  lastEntries(st) {
    const delta = [0, 0, 0];
    for (const p of st.players) delta[this.seatOf[p.id]] = p.battlePoints[p.battlePoints.length - 1] || 0;
    return delta;
  }

  // One row of the score sheet, read from 1k's state: what the protocol calls results.
  pushRow(st, delta, played, contract) {
    const row = { delta, score: [0, 0, 0], bombs: [0, 0, 0], tricks_won: [0, 0, 0], marriage_points: [0, 0, 0],
      taken_points: [0, 0, 0], contract: contract ? contract.bid : 0,
      declarer: contract ? this.seatOf[contract.player] : null,
      conceded: st.phase === Phase.BOMB_DECLARED, talon_shown: Boolean(contract) && this.shown };
    for (const p of st.players) {
      const s = this.seatOf[p.id];
      row.score[s] = getPlayerTotalPoints(p);
      row.bombs[s] = getTotalBombsByPlayer(st, p.id);
      if (played) {
        row.tricks_won[s] = played.battle.wonCards[p.id].length / 3;
        row.marriage_points[s] = battle.calculateTrumpPointsForPlayer(played, p.id);
        row.taken_points[s] = row.marriage_points[s] + battle.calculateCardPointsForPlayer(played, p.id);
      }
    }
    this.rows.push(row);
  }

  deal(msg) {
    if (!this.pendingDeal) throw new Error(`1k is not dealing now (phase ${this.state().phase})`);
    const hands = msg.hands;
    const talon = msg.talon_cards;
    if (!Array.isArray(hands) || hands.length !== 3 || !Array.isArray(talon)) throw new Error('bad deal');
    const deck = [];
    for (const seat of this.order) {
      if (hands[seat].length !== 7) throw new Error('1k deals seven cards to each player');
      deck.push(...hands[seat].map(toLib));
    }
    if (talon.length !== 3) throw new Error('1k deals a musik of three cards');
    deck.push(...talon.map(toLib));
    if (new Set(deck).size !== 24) throw new Error('the deal must use each of the 24 cards once');
    const cb = this.pendingDeal;
    this.pendingDeal = null;
    this.announced = false;
    this.shown = false;
    this.bombed = null;
    cb(deck);
  }

  // ------------------------------------------------------------------ queries
  state() {
    return this.t.getState();
  }

  atFirstLead(st) {
    return st.phase === Phase.TRICK_IN_PROGRESS && st.battle.trickCards.length === 0 &&
      battle.getTotalWonCards(st) === 0;
  }

  declaresMarriage(st, id, card) {
    return st.battle.trickCards.length === 0 && isKingOrQueen(card) &&
      hasMarriageOfSuit(st.cards[id], battle.getCardSuit(card));
  }

  legal() {
    const st = this.state();
    const out = [];
    if (this.pendingDeal || !this.t) return out;
    const seat = (id) => this.seatOf[id];
    if (st.phase === Phase.BIDDING_IN_PROGRESS) {
      for (const id of this.ids) {
        for (const v of BID_VALUES) {
          if (can(st, acts.bid(id, v))) out.push({ seat: seat(id), action: 'bid', value: v });
        }
        if (can(st, acts.bid(id, 0))) out.push({ seat: seat(id), action: 'pass' });
      }
    } else if (st.phase === Phase.SHARE_STOCK) {
      for (const id of this.ids) {
        for (const card of st.cards[id]) {
          for (const to of this.ids) {
            if (can(st, acts.shareStock(id, card, to))) {
              out.push({ seat: seat(id), action: 'give', card: fromLib(card), to: seat(to) });
            }
          }
        }
        if (can(st, acts.declareBomb(id))) out.push({ seat: seat(id), action: 'concede' });
      }
    } else if (st.phase === Phase.TRICK_IN_PROGRESS && this.atFirstLead(st) && !this.announced) {
      const id = getBidWinner(st.bid).player;
      out.push({ seat: seat(id), action: 'announce', value: getHighestBid(st.bid).bid });
      for (const v of BID_VALUES) {
        if (can(st, acts.increaseBid(id, v))) out.push({ seat: seat(id), action: 'announce', value: v });
      }
      if (can(st, acts.declareBomb(id))) out.push({ seat: seat(id), action: 'concede' });
    } else if (st.phase === Phase.TRICK_IN_PROGRESS) {
      for (const id of this.ids) {
        for (const card of st.cards[id]) {
          if (can(st, acts.throwCard(card, id))) {
            out.push({ seat: seat(id), action: 'play', card: fromLib(card),
              marriage: this.declaresMarriage(st, id, card) });
          }
        }
      }
    }
    return out;
  }

  apply(a) {
    if (this.pendingDeal) return [false, 'no deal yet'];
    const id = this.idOf[a.seat];
    if (id === undefined) return [false, 'no such seat'];
    const st = this.state();
    const announcing = st.phase === Phase.TRICK_IN_PROGRESS && this.atFirstLead(st) && !this.announced;
    switch (a.action) {
      case 'bid':
        // 1k reads a bid of 0 as a pass; the protocol's bid is never one.
        if (!Number.isInteger(a.value) || a.value <= 0) return [false, 'bad-payload'];
        return this.verdict(this.t.bid(id, a.value));
      case 'pass':
        return this.verdict(this.t.pass(id));
      case 'give': {
        const to = this.idOf[a.to];
        if (to === undefined) return [false, 'bad-payload'];
        return this.verdict(this.t.shareStock(id, toLib(a.card), to));
      }
      case 'concede': {
        const contract = st.bid.length ? { bid: getHighestBid(st.bid).bid, player: getBidWinner(st.bid).player }
          : null;
        this.bombed = contract; // read by onPhase while declareBomb runs
        const ok = this.t.declareBomb(id);
        if (!ok) this.bombed = null;
        return this.verdict(ok);
      }
      case 'announce': {
        if (!announcing) return [false, 'not-now: 1k announces nothing until the cards are passed'];
        if (getBidWinner(st.bid).player !== id) return [false, 'not the declarer'];
        if (!Number.isInteger(a.value)) return [false, 'bad-payload'];
        const ok = a.value === getHighestBid(st.bid).bid || this.t.increaseBid(id, a.value);
        if (ok) this.announced = true;
        return this.verdict(ok);
      }
      case 'play': {
        if (announcing) return [false, 'the contract is not announced yet'];
        let card;
        try {
          card = toLib(a.card);
        } catch (e) {
          return [false, 'bad-payload'];
        }
        if (st.phase === Phase.TRICK_IN_PROGRESS && st.cards[id] && st.cards[id].includes(card) &&
            Boolean(a.marriage) !== this.declaresMarriage(st, id, card)) {
          return [false, 'marriage-flag: 1k declares a marriage exactly when it is led from a held pair'];
        }
        return this.verdict(this.t.throwCard(card, id));
      }
      default:
        return [false, 'unknown-action'];
    }
  }

  verdict(ok) {
    return ok ? [true, null] : [false, '1k refused'];
  }

  results() {
    return this.rows;
  }
}

function handle(engine, msg) {
  const id = msg.id;
  switch (msg.cmd) {
    case 'hello':
      return { id, ok: true, protocol: PROTOCOL, engine: `1k ${libVersion} (examples/adapters/1k)`,
        capabilities: CAPABILITIES };
    case 'new_game':
      engine.newGame(msg.players, msg.dealer);
      return { id, ok: true };
    case 'set_state':
      engine.setState(msg.state || {});
      return { id, ok: true };
    case 'deal':
      engine.deal(msg);
      return { id, ok: true };
    case 'legal':
      return { id, ok: true, actions: engine.legal() };
    case 'apply': {
      const [accepted, reason] = engine.apply(msg.action || {});
      return accepted ? { id, ok: true, accepted } : { id, ok: true, accepted, reason };
    }
    case 'results':
      return { id, ok: true, deals: engine.results() };
    case 'quit':
      return { id, ok: true };
    default:
      return { id, error: `unknown command ${JSON.stringify(msg.cmd)}` };
  }
}

function main() {
  const engine = new Engine();
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let msg = null;
    let reply;
    try {
      msg = JSON.parse(line);
      reply = handle(engine, msg);
    } catch (e) {
      reply = { id: msg && typeof msg === 'object' ? msg.id : null, error: String(e && e.message ? e.message : e) };
    }
    if (msg && msg.cmd === 'quit') {
      stdout.write(JSON.stringify(reply) + '\n', () => process.exit(0));
      rl.close();
      return;
    }
    stdout.write(JSON.stringify(reply) + '\n');
  });
  rl.on('close', () => stdout.write('', () => process.exit(0)));
}

if (require.main === module) main();

module.exports = { Engine, handle, CAPABILITIES };
