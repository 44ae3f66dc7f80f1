/*
 * The double-dummy search of allfours_notation.checking.analysis.solver, compiled.
 *
 * This file knows no rule of All Fours.  Which cards may be played, who wins a trick
 * and what Game is worth for a split of the pips are asked of Python (callbacks that
 * ask the referee and the scorer) the first time each question comes up, and the
 * answers are kept in tables (_referee.c says on what ground answers are shared between
 * questions).  What the Jack and Low are worth to each seat comes
 * in as numbers.  What this file adds is only the search: alpha-beta (fail-soft) with
 * null-window tests (MTD(f)), a transposition table at trick boundaries keyed by the
 * cards still out in canonical form, equivalent cards searched once, the last trick
 * played out, and the bounds on what the open items can still be worth (_bounds.c) -- the same
 * value, by the same definition, as the pure-Python solver, which stays the reference
 * (a differential test holds the two to identical values).
 *
 * This file holds the search; the module as Python sees it is _module.c's, what the
 * referee answers is kept by _referee.c and the transposition table is _table.c's (see
 * _engine.h).
 *
 * Cards are numbered as the Python solver numbers them (by suit, then rank), so that a
 * bit mask of cards is a hand, and each card has one holder (a trick's seats are its
 * cards' holders).
 */
#include "_engine.h"

/* --- the search ------------------------------------------------------------------------ */

#define ETC_TRICKS 4

static int check_clock(Engine *e) {
    PyObject *now = PyObject_CallNoArgs(e->clock);
    if (!now) return fail(e);
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (PyErr_Occurred()) return fail(e);
    if (t > e->deadline) {
        PyErr_SetNone(e->timeout_type);
        return fail(e);
    }
    return 1;
}

static int last_trick(Engine *e) {
    int pos = e->leader, saved = e->ntrick;
    for (int k = 0; k < e->n; k++) {
        e->trick_pos[k] = pos;
        e->trick_card[k] = 63 - __builtin_clzll(e->hands[pos]);
        pos = e->next_pos[pos];
    }
    e->ntrick = e->n - 1;
    int w = winner_of(e, e->trick_card[e->n - 1]);
    e->ntrick = saved;
    if (e->err) return 0;
    int value = 0, gain = 0;
    for (int k = 0; k < e->n; k++) {
        int c = e->trick_card[k];
        gain += e->pips[c];
        if (c == e->jack) value += e->jack_value[w];
        if (c == e->low) value += e->low_value[w];
    }
    if (e->pipmode) {
        if (e->partition)  /* the cards the trick's winner beat (_partition.c) */
            e->rel = trick_rel(e, e->trick_card, e->n, w);
        return e->side_of[w] ? -gain : gain;
    }
    int pv[3] = {e->pv[0], e->pv[1], e->pv[2]};
    pv[e->side_of[w]] += gain;
    return value + game_value(e, pv);
}

/* Whether the trick stays the side of ``pos``'s whatever the last seat plays, once ``pos``
 * (the last seat but one) plays card ``i`` (the last seat a partner: whether it can keep
 * it the side's); -1 on an error. */
static int trick_kept(Engine *e, int pos, int i) {
    int last = e->next_pos[pos], side = e->side_of[pos];
    int partner = e->side_of[last] == side, kept = !partner;
    e->trick_pos[e->ntrick] = pos;
    e->trick_card[e->ntrick] = i;
    e->ntrick++;
    uint64_t replies = legal_moves(e, last, e->hands[last]);
    for (uint64_t m = replies; m && !e->err; m &= m - 1) {
        int ours = e->side_of[winner_of(e, lowest(m))] == side;
        if (ours == partner) {
            kept = partner;
            break;
        }
    }
    e->ntrick--;
    return e->err ? -1 : kept;
}

/* Whether ``pos``'s card ``i`` has pips and no card of its suit still in another hand is
 * higher: thrown on a trick its side wins, it would be points the side likely takes
 * anyway, and it may win a trick of its own -- so it is thrown on after the other cards
 * (4x9 seed 2026, 40 deals: 59.5 -> 52.2 M nodes; twelve-card deals 0, 4, 6, 7 and 9
 * 63.9 -> 52.1 M, deal 1 260.4 -> 223.2 M); and of the cards that win a trick from the
 * third seat on, it is tried after the others (52.2 -> 49.5 M; 52.1 -> 38.0 M; deals 3
 * and 8 528.7 -> 497.8 M and 620.4 -> 599.1 M; three-handed 3x9 40 deals 3.41 -> 3.25 M;
 * at the second seat too, 4x9 gained a third but twelve cards lost: 69.7 M, deal 8
 * 675.8 M; issue 40) */
static int top_of_suit(const Engine *e, int pos, int i) {
    if (!e->pips[i]) return 0;
    return !(e->up_mask[i] & e->remaining & ~e->hands[pos] & ~(1ULL << i));
}

/* the cards to search at ``pos`` (``legal``), one of each group of equivalent cards,
 * likely best first; returns how many */
static int moves_at(Engine *e, int pos, uint64_t legal, int hint, int killer, int *moves) {
    uint64_t outside = e->remaining & ~e->hands[pos];
    for (int k = 0; k < e->ntrick; k++) outside |= 1ULL << e->trick_card[k];
    int count = 0, last = -1;
    for (uint64_t m = legal; m; m &= m - 1) {
        int i = lowest(m);
        if (last >= 0 && e->suit_of[i] == e->suit_of[last] &&
            !(e->counting >> i & 1) && !(e->counting >> last & 1)) {
            uint64_t gap = ((1ULL << i) - 1) & ~((2ULL << last) - 1);
            if (!(gap & outside)) {
                last = i;
                continue;
            }
        }
        moves[count++] = i;
        last = i;
    }
    if (count < 2) return count;
    int keys[MAX_CARDS];
    if (!e->ntrick) {
        for (int k = 0; k < count; k++) keys[k] = e->lead_key[moves[k]];
    } else {
        int now = winner_of(e, -1);
        if (e->err) return 0;
        int ours = e->side_of[now] == e->side_of[pos];
        int last_but_one = e->n >= 3 && e->ntrick == e->n - 2;
        for (int k = 0; k < count; k++) {
            int i = moves[k];
            int wins = winner_of(e, i) == pos;
            if (e->err) return 0;
            /* a card that wins: plain before trump, most pips first (win_key) */
            if (ours && !wins && last_but_one) {
                /* points thrown on first where the last seat cannot take the trick; where it
                 * can, the winners first and then the cheapest card (the points first cost
                 * 4x12 deal 1 9% more nodes, deals 0 and 7 six and three times; issue 40) */
                int kept = trick_kept(e, pos, i);
                if (kept < 0) return 0;
                keys[k] = kept ? -e->pips[i] + 1000 * top_of_suit(e, pos, i)
                               : 2000000 + e->cheap_key[i];
            } else if (ours) {  /* the side is winning: points thrown on first (the top of a
                                 * suit last of them), a winner last */
                keys[k] = wins ? 1000000 + e->win_key[i] : -e->pips[i] + 1000 * top_of_suit(e, pos, i);
            } else if (wins) {  /* a card that wins (from the third seat on, the top of a
                                 * suit after the others: it wins later too) */
                keys[k] = e->win_key[i] + (e->ntrick >= 2 && top_of_suit(e, pos, i) ? 50000 : 0);
            } else {   /* then the cheapest card */
                keys[k] = 1000000 + e->cheap_key[i];
            }
        }
    }
    for (int k = 1; k < count; k++) {  /* insertion sort, stable */
        int m = moves[k], key = keys[k], j = k - 1;
        while (j >= 0 && keys[j] > key) {
            moves[j + 1] = moves[j];
            keys[j + 1] = keys[j];
            j--;
        }
        moves[j + 1] = m;
        keys[j + 1] = key;
    }
    if (hint >= 0) {
        for (int k = 0; k < count; k++) {
            if (moves[k] == hint) {
                memmove(moves + 1, moves, (size_t)k * sizeof(int));
                moves[0] = hint;
                break;
            }
        }
    }
    /* the killer second, after the table's card or the first of the static order (as the
     * Python solver): first, it cut at 86-90% of the nodes inside a trick where the
     * static order's first card cut at 93-96%, and searched twice the nodes (issue 40) */
    if (killer >= 0 && killer != moves[0]) {
        for (int k = 1; k < count; k++) {
            if (moves[k] == killer) {
                memmove(moves + 2, moves + 1, (size_t)(k - 1) * sizeof(int));
                moves[1] = killer;
                break;
            }
        }
    }
    return count;
}


/* ``pos`` plays card ``i`` to the position, the value from there is searched in the
 * window, and the position is put back */
int child(Engine *e, int pos, int i, int alpha, int beta) {
    uint64_t bit = 1ULL << i;
    e->hands[pos] ^= bit;
    e->remaining ^= bit;
    int v;
    if (e->ntrick + 1 == e->n) {
        int w = winner_of(e, i);
        if (e->err) {
            e->hands[pos] ^= bit;
            e->remaining ^= bit;
            return 0;
        }
        int gain = e->pips[i], value = 0;
        if (i == e->jack) value += e->jack_value[w];
        if (i == e->low) value += e->low_value[w];
        for (int k = 0; k < e->ntrick; k++) {
            int c = e->trick_card[k];
            gain += e->pips[c];
            if (c == e->jack) value += e->jack_value[w];
            if (c == e->low) value += e->low_value[w];
        }
        int side = e->side_of[w], leader = e->leader, ntrick = e->ntrick;
        if (e->pipmode) value = side ? -gain : gain;
        int tp[MAX_SEATS], tc[MAX_SEATS];
        memcpy(tp, e->trick_pos, sizeof tp);
        memcpy(tc, e->trick_card, sizeof tc);
        e->pv[side] += gain;
        e->rest -= gain;
        e->leader = w;
        e->ntrick = 0;
        v = value + search(e, alpha - value, beta - value);
        if (e->pipmode && e->partition) {  /* the cards the trick's winner beat */
            tc[ntrick] = i;
            e->rel |= trick_rel(e, tc, ntrick + 1, w);
        }
        e->pv[side] -= gain;
        e->rest += gain;
        e->leader = leader;
        e->ntrick = ntrick;
        memcpy(e->trick_pos, tp, sizeof tp);
        memcpy(e->trick_card, tc, sizeof tc);
    } else {
        e->trick_pos[e->ntrick] = pos;
        e->trick_card[e->ntrick] = i;
        e->ntrick++;
        v = search(e, alpha, beta);
        e->ntrick--;
    }
    e->hands[pos] ^= bit;
    e->remaining ^= bit;
    return v;
}
/* Game's value when the first side takes ``x`` more of the ``rest`` pips still out */
static int split_value(Engine *e, int x) {
    int pv[3] = {e->pv[0] + x, e->pv[1] + e->rest - x, 0};
    return game_value(e, pv);
}

/* A trick boundary where Game is the only item still open (the Jack and Low gone, or
 * settled: sure to one side and worth ``items`` whoever plays what), two
 * sides, Game never worth less to the first for more of its pips (``monotone``) and the
 * first side maximising: the value is Game's for the pips margin the first side makes
 * from here on (what it takes less what the second takes), so the window on the value
 * becomes one on that margin (Game's value at each split asked of the scorer) and the
 * margin is searched (``pipmode``): its table entries hold bounds on the margin from here
 * on, whatever the pips taken before, and a search that fails returns how far it fell
 * short in pips, not only that Game is lost -- where the points' search keeps a bound at
 * two margins of the pips taken at most (issue 40).  The margin found is turned back
 * into Game's value: a bound on the margin gives one on the value (the value rises with
 * the margin), so fail-soft stays fail-soft. */
static int pip_enter(Engine *e, int alpha, int beta, int items) {
    int rest = e->rest, lo = 0, hi = rest + 1;
    while (lo < hi) {  /* the least split worth beta or more (rest + 1: none) */
        int mid = (lo + hi) / 2;
        int v = split_value(e, mid);
        if (e->err) return 0;
        if (items + v >= beta) hi = mid;
        else lo = mid + 1;
    }
    int xb = lo;
    lo = -1;
    hi = rest;
    while (lo < hi) {  /* the most split worth alpha or less (-1: none) */
        int mid = lo + (hi - lo + 1) / 2;
        int v = split_value(e, mid);
        if (e->err) return 0;
        if (items + v <= alpha) lo = mid;
        else hi = mid - 1;
    }
    int xa = lo, fa = 2 * xa - rest, fb = 2 * xb - rest;
    e->pipmode = 1;
    int f = search(e, fa, fb);
    e->pipmode = 0;
    if (e->err) return 0;
    if (f < -rest) f = -rest;
    if (f > rest) f = rest;
    /* the margin f is 2x - rest for a split x: a bound rounded the way it holds */
    int x = f <= fa ? (f + rest) / 2 : (f + rest + 1) / 2;
    return items + split_value(e, x);
}

int search(Engine *e, int alpha, int beta) {
    if (e->err) return 0;
    e->nodes++;
    if (!(e->nodes & CLOCK_EVERY)) {
        if (e->has_deadline && !check_clock(e)) return 0;
        if (!e->advised && e->nodes >= LONG_SEARCH) {
            e->tt = table_promote(e->tt);
            e->legal = table_promote(e->legal);
            e->win = table_promote(e->win);
            e->advised = 1;
        }
        if (!e->grown && e->grow_after && e->nodes >= e->grow_after) {
            tt_grow(e);
            e->grown = 1;
        }
    }
    uint64_t remaining = e->remaining;
    int alpha0 = alpha, beta0 = beta, pos, hint = -1;
    TTProbe probe;
    /* partition search (the pips-margin search only): the table's partition entries, and
     * the cards this answer's proof compared, carried up in e->rel (_partition.c) */
    PartProbe part_probe;
    int part = e->pipmode && e->partition;
    uint64_t rel = 0;
    int at_boundary = !e->ntrick;
#ifdef AFN_SEARCH_STATS
    int sd = __builtin_popcountll(remaining), st_root = 0;
    e->st->nodes[sd][e->ntrick]++;
    if (e->pipmode) e->st->pip_nodes[sd]++;
    if (e->st->in_test && sd == e->st->root_depth && e->ntrick == e->st->root_ntrick) {
        st_root = 1;
        e->st->in_test = 0;
    }
#endif
    if (!e->ntrick) {
        if (!remaining) {
            e->rel = 0;
            return e->pipmode ? 0 : game_value(e, e->pv);
        }
        if (__builtin_popcountll(remaining) == e->n) return last_trick(e);
        int items;
        if (!e->pipmode && e->pip_search && game_only(e, remaining, &items))
            return pip_enter(e, alpha, beta, items);
        /* the entries' region asked of memory ahead, while the bounds are worked out */
        if (part) pt_key(e, remaining, e->leader, &part_probe);
        Credit credit;
        open_bounds(e, alpha, beta, &credit);
        if (e->err) return 0;
        int low = credit.low, high = credit.high;
        if (e->pipmode) {  /* the margin: each side sure of its credit */
            low = 2 * credit.sure[0] - e->rest;
            high = e->rest - 2 * credit.sure[1];
        }
        if (low == high || high <= alpha || low >= beta) {
            e->settled++;
            STAT(e->st->settled[sd]++);
            if (part) e->rel = bounds_rel(e, 0);
            return low >= beta || low == high ? low : high;
        }
        if (part) {
            pt_read(e, remaining, e->leader, alpha, beta, &part_probe);
            probe.lower = part_probe.lower;
            probe.upper = part_probe.upper;
            probe.move = part_probe.move;
            rel = part_probe.rel;  /* only entries that narrow the window: see pt_read */
        } else {
            tt_find(e, remaining, e->pv, e->rest, e->leader, &probe);
        }
        int lower = probe.lower, upper = probe.upper;
        STAT(e->st->probes[sd]++);
        STAT(e->st->found[sd] += probe.move >= 0 || lower > -INF || upper < INF);
        if (lower >= beta || lower == upper) {
            e->table_hits++;
            STAT(e->st->tt_cut[sd]++);
            e->rel = rel;
            return lower;
        }
        if (upper <= alpha) {
            e->table_hits++;
            STAT(e->st->tt_cut[sd]++);
            e->rel = rel;
            return upper;
        }
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
        /* the runs of winning leads, dearer, only where the table did not settle it */
        if (e->pipmode) {
            /* a run only raises the side on lead's credit: tried where that could settle */
            int side = e->side_of[e->leader];
            if (side ? low <= alpha : high >= beta) {
                int led = led_pips(e, &credit);
                if (e->err) return 0;
                if (led >= 0) {
                    if (side) {
                        if (e->rest - 2 * led < high) high = e->rest - 2 * led;
                    } else if (2 * led - e->rest > low) {
                        low = 2 * led - e->rest;
                    }
                }
            }
        } else {
            led_bounds(e, alpha, beta, &credit);
            if (e->err) return 0;
            low = credit.low;
            high = credit.high;
        }
        if (low == high || high <= alpha || low >= beta) {
            e->settled++;
            if (part) e->rel = rel | bounds_rel(e, 1);
            return low >= beta || low == high ? low : high;
        }
        hint = probe.move;
        pos = e->leader;
    } else {
        pos = e->next_pos[e->trick_pos[e->ntrick - 1]];
    }
    uint64_t legal = legal_moves(e, pos, e->hands[pos]);
    if (e->err) return 0;
    if (part && e->legal_ranks && e->ntrick && !(e->trumps >> e->trick_card[0] & 1) &&
        (e->hands[pos] & e->trumps)) {
        /* the legal cards may compare a held trump with the highest trump on the table
         * (a plain suit led, told by Python): that trump's rank is kept */
        int top = -1;
        for (int t = 0; t < e->ntrick; t++) {
            int c = e->trick_card[t];
            if (e->trumps >> c & 1 && c > top) top = c;
        }
        if (top >= 0) rel |= e->up_mask[top];
    }
    int depth = __builtin_popcountll(remaining);
    int moves[MAX_CARDS];
    int killer0 = e->killer[depth][e->ntrick];
    int count = moves_at(e, pos, legal, hint, killer0, moves);
    if (e->err) return 0;
    /* the enhanced cutoff; among partition entries only four tricks or more from the end:
     * nearer, reading each card's region cost more than the nodes it saved (4x9 deal 31:
     * 31.9 M nodes with it everywhere, 37.6 M so, 41.6 M without it there; 6.2, 5.5 and
     * 5.6 s of CPU; twelve-card deal 1 about 77, 74 and 77 s; issue 40) */
    if (e->ntrick == e->n - 1 && (!part || depth >= ETC_TRICKS * e->n)) {
        int cut = table_cut(e, pos, moves, count, alpha, beta);
        if (e->err) return 0;
        STAT(e->st->etc_tries[depth]++);
        STAT(e->st->etc_fires[depth] += cut != INT32_MIN);
        if (cut != INT32_MIN) {
            e->rel |= rel;
            return cut;
        }
    }
    STAT(e->st->hint_used[depth] += hint >= 0 && count && moves[0] == hint);
    int maximise = e->maximises[pos];
    int best = maximise ? -INF : INF, best_move = -1;
    uint64_t every_rel = 0, cut_rel = 0;
    int k;
    for (k = 0; k < count; k++) {
        int i = moves[k];
#ifdef AFN_SEARCH_STATS
        long long before = e->nodes;
#endif
        int v = child(e, pos, i, alpha, beta);
        if (e->err) return 0;
        every_rel |= e->rel;
        cut_rel = e->rel;
#ifdef AFN_SEARCH_STATS
        e->st->children[depth][e->ntrick]++;
        if (st_root && k < STAT_ROOT) {
            int t = e->st->ntests;
            e->st->root_card[t][k] = i;
            e->st->root_nodes[t][k] = e->nodes - before;
            e->st->root_count[t] = k + 1;
        }
#endif
        if (maximise) {
            if (v > best) {
                best = v;
                best_move = i;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        } else if (v < best) {
            best = v;
            best_move = i;
            if (v < beta) {
                beta = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (alpha >= beta) {
        e->killer[depth][e->ntrick] = best_move;
        STAT(e->st->cuts[depth][e->ntrick]++);
        STAT(e->st->cut_first[depth][e->ntrick] += k == 0);
        STAT(e->st->cut_index[depth][e->ntrick] += k);
#ifdef AFN_SEARCH_STATS
        int src = moves[0] == hint ? 1 : moves[0] == killer0 ? 2 : 0;
        e->st->source[e->ntrick][src][k > 0]++;
        if (k > 0) {
            int kind[2];
            for (int j = 0; j < 2; j++) {
                int c = j ? moves[k] : moves[0];
                kind[j] = (e->ntrick && winner_of(e, c) == pos) | (int)(e->trumps >> c & 1) << 1 |
                          (e->pips[c] > 0) << 2;
            }
            e->st->kinds[e->ntrick][kind[0]][kind[1]]++;
        }
#endif
    }
    /* a cut: the cutting card's answer; else every card's, a group searched once whole */
    if (part) rel |= alpha >= beta ? cut_rel : group_rel(e, pos, legal, every_rel);
    if (at_boundary) {
        int lower = probe.lower, upper = probe.upper;
        if (best <= alpha0) {
            if (best < upper) upper = best;
        } else if (best >= beta0) {
            if (best > lower) lower = best;
        } else {
            lower = upper = best;
        }
        if (part) pt_store(e, &part_probe, remaining, e->leader, rel, lower, upper, best_move, depth);
        else tt_store(e, &probe, lower, upper, best_move, depth);
    }
    e->rel = rel;
    return best;
}

/* The exact value by null-window tests.  At a trick boundary the value lies between the
 * least and the most the open items can still be worth (open_bounds), and each test is
 * at the upper middle of what is left between the bounds the tests so far gave (a
 * bisection); elsewhere MTD(f): tests from 0, each at the bound the last one gave, up or
 * down by one.  Stepping up from 0, a value of 2 cost the test "at least 1" as well as
 * "at least 2", each a long search; a test above the value fails low, and the bound it
 * returns (the search is fail-soft) often skips several steps (issue 40). */
int exact(Engine *e) {
    int lower = -INF, upper = INF, value = 0, bisect = 0;
    if (!e->ntrick && e->remaining) {
        Credit credit;  /* every credit, as bounds() gives them: the whole range */
        open_bounds(e, -INF, INF, &credit);
        if (!e->err) led_bounds(e, -INF, INF, &credit);
        if (e->err) return 0;
        lower = credit.low;
        upper = credit.high;
        value = lower;
        bisect = 1;
    }
#ifdef AFN_SEARCH_STATS
    e->st->ntests = 0;
    e->st->root_depth = __builtin_popcountll(e->remaining);
    e->st->root_ntrick = e->ntrick;
#endif
    while (lower < upper && !e->err) {
        int beta = bisect ? lower + (upper - lower + 2) / 2 : value == lower ? value + 1 : value;
#ifdef AFN_SEARCH_STATS
        long long before = e->nodes;
        int t = e->st->ntests;
        e->st->in_test = t < STAT_TESTS - 1;
        e->st->root_count[t] = 0;
#endif
        value = search(e, beta - 1, beta);
#ifdef AFN_SEARCH_STATS
        e->st->test_beta[t] = beta;
        e->st->test_value[t] = e->err ? INT32_MIN : value;
        e->st->test_nodes[t] = e->nodes - before;
        if (t < STAT_TESTS - 1) e->st->ntests = t + 1;
        e->st->in_test = 0;
#endif
        if (value < beta) upper = value;
        else lower = value;
    }
    return value;
}
