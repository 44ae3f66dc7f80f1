/*
 * The early stop's bounds: the least and the most the items still open can be worth at
 * a trick boundary, as the Python solver's (early_stop.EarlyStop._bounds and bounds.py,
 * where each credit is proved).  No rule of All Fours is written here: a trick with a card of
 * ``sure_order`` (the trumps) in it goes to the highest of them, else to the highest card
 * of the suit led -- the ground the pairwise trick winners of _referee.c stand on -- and
 * which cards a hand may play to a trick is asked of the referee (legal_moves).
 *
 *  - the sure trumps: one every higher one of which still out is its side's (sure_items);
 *  - what they force (surrendered): a seat of that side holding k of them wins k tricks,
 *    to each of which every other hand gives a card, at least its k cheapest;
 *  - with ``forcing``, for the side on lead only (a strategy of its): a run of leads
 *    nobody can beat (led_run), each other hand's least total over every sequence of the
 *    referee's legal replies.
 */
#include "_engine.h"

#ifndef FORCING_TRICKS
#define FORCING_TRICKS 3
#endif

/* the number of cards in a set: inline (a build for any x86-64 calls a library function
 * for __builtin_popcountll, which the early stop would call at every trick boundary) */
static inline int count_of(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* the range of ``values`` (one per seat) over the seats of ``side`` (-1: every seat) */
static void seat_range(const Engine *e, const int *values, int side, int *lo, int *hi) {
    *lo = INF;
    *hi = -INF;
    for (int p = 0; p < e->n; p++) {
        if (side >= 0 && e->side_of[p] != side) continue;
        if (values[p] < *lo) *lo = values[p];
        if (values[p] > *hi) *hi = values[p];
    }
}

static int side_holding(const uint64_t *won, int nsides, int card) {
    for (int s = 0; s < nsides; s++)
        if (won[s] >> card & 1) return s;
    return -1;
}

/* the least and the most the Jack and Low still out can be worth, a card in won[side]
 * going to a seat of that side (bounds.item_range) */
static void item_range(const Engine *e, const uint64_t *won, int *least, int *most) {
    int a, b;
    *least = *most = 0;
    if (e->jack >= 0 && (e->remaining >> e->jack & 1)) {
        seat_range(e, e->jack_value, side_holding(won, e->nsides, e->jack), &a, &b);
        *least += a;
        *most += b;
    }
    if (e->low >= 0 && (e->remaining >> e->low & 1)) {
        seat_range(e, e->low_value, side_holding(won, e->nsides, e->low), &a, &b);
        *least += a;
        *most += b;
    }
}

/* the pips of the ``k`` cheapest cards of ``cards``, those of ``free`` counting nothing */
static int cheapest(const Engine *e, uint64_t cards, uint64_t free, int k) {
    int sum = 0;
    int zero = count_of(cards & (free | e->pip_class[0]));
    if (zero >= k) return 0;
    k -= zero;
    for (int v = 1; v < e->nclasses && k > 0; v++) {
        int count = count_of(cards & ~free & e->pip_class[v]);
        int take = count < k ? count : k;
        sum += take * e->class_pips[v];
        k -= take;
    }
    return sum;
}

/* the referee's legal cards of ``hand`` (seat ``pos``) to a trick the leader opened
 * with ``lead`` (the trick set up for the question and taken down again) */
static uint64_t replies_to(Engine *e, int pos, uint64_t hand, int lead) {
    e->trick_pos[0] = e->leader;
    e->trick_card[0] = lead;
    e->ntrick = 1;
    uint64_t allowed = legal_moves(e, pos, hand);
    e->ntrick = 0;
    return allowed;
}

/* One opponent's least total over every sequence of its legal replies to the leads
 * ``leads[r..rounds)`` (bounds.led_run): its pips, and the cards given up on every
 * sequence.  The hands met are kept for the call (e->run_epoch: a new call forgets). */
static int least_replies(Engine *e, int pos, uint64_t hand, const int *leads, int r,
                         int rounds, uint64_t *every) {
    *every = 0;
    if (r == rounds || !hand) return 0;
    uint64_t at = mix(hand) & (RUN_MEMO - 1);
    for (int probe = 0; probe < 8; probe++) {
        RunMemo *slot = &e->run_memo[(at + probe) & (RUN_MEMO - 1)];
        if (slot->epoch != e->run_epoch) break;
        if (slot->hand == hand) {
            *every = slot->every;
            return slot->pips;
        }
    }
    uint64_t allowed = replies_to(e, pos, hand, leads[r]);
    if (e->err) return 0;
    int best;
    if (allowed == hand) {
        int left = rounds - r, held = count_of(hand);
        best = cheapest(e, hand, 0, left);
        *every = left >= held ? hand : 0;
    } else {
        best = INF;
        uint64_t all = ~0ULL;
        for (uint64_t m = allowed; m; m &= m - 1) {
            int i = lowest(m);
            uint64_t cards;
            int p = least_replies(e, pos, hand ^ (1ULL << i), leads, r + 1, rounds, &cards);
            if (e->err) return 0;
            p += e->pips[i];
            if (p < best) best = p;
            all &= cards | (1ULL << i);
        }
        *every = all;
    }
    for (int probe = 0; probe < 8; probe++) {
        RunMemo *slot = &e->run_memo[(at + probe) & (RUN_MEMO - 1)];
        if (slot->epoch == e->run_epoch) continue;
        slot->epoch = e->run_epoch;
        slot->hand = hand;
        slot->pips = best;
        slot->every = *every;
        break;
    }
    return best;
}

/* the side on lead's credit for leading ``leads`` in turn (bounds.led_run): the pips
 * the run's tricks are sure to hold beyond the side's sure trumps ``sure``, the cards
 * they are sure to hold, and how many leads are made (*made) */
static int led_run(Engine *e, const int *leads, int rounds, uint64_t sure, uint64_t *given,
                   int *made) {
    int side = e->side_of[e->leader], total = 0;
    int path[MAX_SEATS][MAX_CARDS];
    *given = 0;
    for (int pos = 0; pos < e->n; pos++) {  /* each partner's own path */
        if (pos == e->leader || e->side_of[pos] != side) continue;
        uint64_t hand = e->hands[pos];
        for (int r = 0; r < rounds; r++) {
            if (!hand) break;
            uint64_t allowed = replies_to(e, pos, hand, leads[r]);
            if (e->err) return 0;
            if (!(e->trumps >> leads[r] & 1)) allowed &= ~e->trumps;
            if (!allowed) {
                rounds = r;
                break;
            }
            int pick = -1, most = -1;
            for (uint64_t m = allowed; m; m &= m - 1) {
                int i = lowest(m), v = sure >> i & 1 ? 0 : e->pips[i];
                if (v > most) {
                    most = v;
                    pick = i;
                }
            }
            path[pos][r] = pick;
            hand ^= 1ULL << pick;
        }
    }
    for (int r = 0; r < rounds; r++) {
        int i = leads[r];
        total += sure >> i & 1 ? 0 : e->pips[i];
        *given |= 1ULL << i;
    }
    for (int pos = 0; pos < e->n; pos++) {
        if (pos == e->leader || e->side_of[pos] != side) continue;
        uint64_t hand = e->hands[pos];
        for (int r = 0; r < rounds && hand; r++) {
            int i = path[pos][r];
            total += sure >> i & 1 ? 0 : e->pips[i];
            *given |= 1ULL << i;
            hand ^= 1ULL << i;
        }
    }
    for (int pos = 0; pos < e->n; pos++) {
        if (e->side_of[pos] == side) continue;
        uint64_t every;
        if (!++e->run_epoch) {  /* wrapped: every slot forgotten */
            memset(e->run_memo, 0, sizeof e->run_memo);
            e->run_epoch = 1;
        }
        total += least_replies(e, pos, e->hands[pos], leads, 0, rounds, &every);
        if (e->err) return 0;
        *given |= every;
    }
    *made = rounds;
    return total;
}

/* the leads of a run, cut at the first the referee does not allow the leader */
static int lawful_run(Engine *e, const int *run, int count) {
    uint64_t left = e->hands[e->leader];
    for (int k = 0; k < count; k++) {
        uint64_t allowed = legal_moves(e, e->leader, left);
        if (e->err) return 0;
        if (!(allowed >> run[k] & 1)) return k;
        left ^= 1ULL << run[k];
    }
    return count;
}

/* the runs of leads the side on lead may make (EarlyStop._runs): at most two, into runs[],
 * their lengths into lengths[]; how many */
static int runs_of(Engine *e, uint64_t sure, int runs[2][MAX_CARDS], int *lengths) {
    int leader = e->leader, side = e->side_of[leader];
    uint64_t hand = e->hands[leader], remaining = e->remaining, trumps = remaining & e->trumps;
    uint64_t theirs = 0;
    for (int pos = 0; pos < e->n; pos++)
        if (e->side_of[pos] != side) theirs |= e->hands[pos] & trumps;
    int plain[MAX_CARDS], nplain = 0;
    for (int s = 0; s < e->nsuits; s++) {
        int start = e->suit_start[s];
        if (e->trumps >> start & 1) continue;
        for (int i = start + e->suit_len[s] - 1; i >= start; i--) {
            if (!(remaining >> i & 1)) continue;
            if (!(hand >> i & 1)) break;
            plain[nplain++] = i;
        }
    }
    if (!theirs) {
        int count = lawful_run(e, plain, nplain);
        if (e->err || !count) return 0;
        memcpy(runs[0], plain, (size_t)count * sizeof(int));
        lengths[0] = count;
        return 1;
    }
    int top = 0;
    for (int k = 0; k < e->nsure; k++) {
        int i = e->sure_order[k];
        if (!(trumps >> i & 1)) continue;
        if (!(hand >> i & 1)) break;
        runs[0][top++] = i;
    }
    top = lawful_run(e, runs[0], top);
    if (e->err || !top) return 0;
    lengths[0] = top;
    if (!nplain) return 1;
    uint64_t cards;
    int made;
    led_run(e, runs[0], top, sure, &cards, &made);
    if (e->err) return 0;
    if (made < top || (theirs & ~cards)) return 1;
    memcpy(runs[1], runs[0], (size_t)top * sizeof(int));
    memcpy(runs[1] + top, plain, (size_t)nplain * sizeof(int));
    lengths[1] = lawful_run(e, runs[1], top + nplain);
    if (e->err) return 0;
    return 2;
}

/* whether the leader holds a card a run may start with (EarlyStop._may_run): the highest
 * trump still out, or, when the other sides hold no trump, the highest card still out of
 * a plain suit */
static int may_run(const Engine *e) {
    uint64_t hand = e->hands[e->leader], trumps = e->remaining & e->trumps;
    if (trumps && (hand >> (63 - __builtin_clzll(trumps)) & 1)) return 1;
    int side = e->side_of[e->leader];
    for (int p = 0; p < e->n; p++)
        if (e->side_of[p] != side && (e->hands[p] & trumps)) return 0;
    for (int s = 0; s < e->nsuits; s++) {
        int start = e->suit_start[s];
        if (e->trumps >> start & 1) continue;
        uint64_t part = e->remaining >> start & ((1ULL << e->suit_len[s]) - 1);
        if (part && (hand >> (start + 63 - __builtin_clzll(part)) & 1)) return 1;
    }
    return 0;
}

void open_bounds(Engine *e, int alpha, int beta, Credit *c) {
    uint64_t remaining = e->remaining, won[3] = {0, 0, 0}, sure_mask[3];
    int own[3] = {0, 0, 0}, above = 0;
    for (int k = 0; k < e->nsure; k++) {
        int i = e->sure_order[k];
        if (!(remaining >> i & 1)) continue;
        int side = e->side_of[e->owner[i]];
        if (!above || above == 1 << side) {
            won[side] |= 1ULL << i;
            own[side] += e->pips[i];
        }
        above |= 1 << side;
        if (above & (above - 1)) break;  /* two sides above: no lower trump is sure */
    }
    memcpy(sure_mask, won, sizeof won);
    int sure[3] = {own[0], own[1], own[2]}, extra[3] = {0, 0, 0};
    /* near the end a search is cheaper than the credits: with fewer than FORCING_TRICKS
     * tricks to play they are left out (only inside a window: bounds() has them all) */
    int forcing = e->forcing && ((alpha == -INF && beta == INF) ||
                                 count_of(remaining) >= FORCING_TRICKS * e->n);
    /* what the sure trumps force: bounds.surrendered */
    if (forcing && (won[0] | won[1] | won[2])) {
        uint64_t every_sure = won[0] | won[1] | won[2];
        for (int side = 0; side < e->nsides; side++) {
            uint64_t mask = won[side];
            if (!mask) continue;
            int k = 0;
            for (int p = 0; p < e->n; p++) {
                int held = count_of(e->hands[p] & mask);
                if (e->side_of[p] == side && held > k) k = held;
            }
            uint64_t taken = mask;
            for (int p = 0; p < e->n; p++) {
                uint64_t hand = e->hands[p], cards;
                if (e->side_of[p] == side) {
                    extra[side] += cheapest(e, hand, mask, k);
                    cards = hand;
                } else {
                    cards = hand & ~every_sure;
                    extra[side] += cheapest(e, cards, 0, k);
                }
                if (count_of(cards) <= k) taken |= cards;
            }
            won[side] = taken;
            sure[side] += extra[side];
        }
    }
    int credited = sure[0] + sure[1] + sure[2];
    int pv[3] = {e->pv[0] + sure[0], e->pv[1] + sure[1], e->pv[2] + sure[2]};
    int low = 0, high = 0, least, most;
    game_bounds(e, pv, e->rest - credited, &low, &high);
    if (e->err) return;
    item_range(e, won, &least, &most);
    low += least;
    high += most;
    c->low = low;
    c->high = high;
    c->forcing = forcing;
    memcpy(c->won, won, sizeof won);
    memcpy(c->sure_mask, sure_mask, sizeof sure_mask);
    memcpy(c->own, own, sizeof own);
    memcpy(c->sure, sure, sizeof sure);
    memcpy(c->extra, extra, sizeof extra);
}

void led_bounds(Engine *e, int alpha, int beta, Credit *c) {
    int low = c->low, high = c->high, least, most;
    if (!c->forcing || low == high || high <= alpha || low >= beta) return;
    uint64_t remaining = e->remaining, *won = c->won, *sure_mask = c->sure_mask;
    int *own = c->own, *sure = c->sure, *extra = c->extra;
    int leader = e->leader, side = e->side_of[leader], maximise = e->maximises[leader];
    if (!may_run(e)) return;
    int full = alpha == -INF && beta == INF;
    if (!full) {
        /* a run can at best give the side every card the other sides are not sure of:
         * when even that leaves the bound inside the window, no run is tried */
        uint64_t taken[3] = {won[0], won[1], won[2]}, others = 0;
        int best[3] = {sure[0], sure[1], sure[2]};
        best[side] = e->rest;
        for (int s = 0; s < e->nsides; s++) {
            if (s == side) continue;
            others |= won[s];
            best[side] -= sure[s];
        }
        taken[side] |= remaining & ~others;
        int bpv[3] = {e->pv[0] + best[0], e->pv[1] + best[1], e->pv[2] + best[2]};
        int glow, ghigh;
        game_bounds(e, bpv, e->rest - best[0] - best[1] - best[2], &glow, &ghigh);
        if (e->err) return;
        item_range(e, taken, &least, &most);
        if (maximise ? glow + least < beta : ghigh + most > alpha) return;
    }
    {  /* the side on lead's runs of leads nobody can beat: bounds.led_run */
        int runs[2][MAX_CARDS], lengths[2];
        int nruns = runs_of(e, sure_mask[side], runs, lengths);
        if (e->err) return;
        for (int r = 0; r < nruns; r++) {
            uint64_t given;
            int made;
            int pips = led_run(e, runs[r], lengths[r], sure_mask[side], &given, &made);
            if (e->err) return;
            uint64_t taken[3] = {won[0], won[1], won[2]};
            taken[side] |= given;
            if (pips <= extra[side] && taken[side] == won[side]) continue;
            int led[3] = {sure[0], sure[1], sure[2]};
            led[side] = own[side] + (pips > extra[side] ? pips : extra[side]);
            int lpv[3] = {e->pv[0] + led[0], e->pv[1] + led[1], e->pv[2] + led[2]};
            int glow, ghigh;
            game_bounds(e, lpv, e->rest - led[0] - led[1] - led[2], &glow, &ghigh);
            if (e->err) return;
            item_range(e, taken, &least, &most);
            if (maximise) {
                if (glow + least > low) low = glow + least;
            } else if (ghigh + most < high) {
                high = ghigh + most;
            }
        }
    }
    c->low = low;
    c->high = high;
}

/* The side on lead's runs as pips (for the pips-margin search): the most its runs make
 * it sure of, as led_bounds credits them (its sure trumps' pips and the more of what
 * they force and what a run gives), or -1 when it has no run that adds to its credit */
int led_pips(Engine *e, const Credit *c) {
    int side = e->side_of[e->leader], best = -1;
    if (!c->forcing || !may_run(e)) return -1;
    int runs[2][MAX_CARDS], lengths[2];
    int nruns = runs_of(e, c->sure_mask[side], runs, lengths);
    if (e->err) return -1;
    for (int r = 0; r < nruns; r++) {
        uint64_t given;
        int made;
        int pips = led_run(e, runs[r], lengths[r], c->sure_mask[side], &given, &made);
        if (e->err) return -1;
        if (pips <= c->extra[side]) continue;
        int led = c->own[side] + pips;
        if (led > best) best = led;
    }
    return best;
}
