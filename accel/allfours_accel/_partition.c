/*
 * Partition search in the pips-margin search (issue 40): a table entry that holds for
 * every position whose cards without pips (and not named by a rule) decided no trick of
 * its proof, as bridge double-dummy solvers keep "winning ranks".
 *
 * Why it is sound.  Each card has one holder.  Say a set R of cards is relevant to an
 * answer when R is closed upwards in each suit (with a card, every higher card of its
 * suit) and the answer's proof compares no two cards of one suit unless the higher is
 * in R.  Take two positions P and P' with the same leader, the same counting cards out
 * (the cards with pips and the cards a rule may name: kept by name), the same number of
 * cards of each suit in each hand and, in each suit, the same top t cards out in rank
 * order -- the same holders, a counting card at the same place -- where t is how many of
 * the suit's cards out are in R at P.  Map P's cards to P''s: the top t cards of each
 * suit place by place, the counting cards to themselves, each hand's other cards of a
 * suit to its other cards of that suit in P' (they have no pips).  A card of R is higher
 * than every card out below the top t, in P as in P'.  So each comparison the proof makes
 * comes out the same in P' (the higher card is in R; the lower is in R too, in the same
 * order, or below R in both), each trick goes to the same seat, holds the same pips, and
 * the proof is a proof of the same bound at P'.  The legal cards see suits, and (told by
 * Python, ``legal_ranks``: trinidad14's rule against under-trumping) a held trump's rank
 * against the highest trump on the table, which is then made relevant: a trump above it
 * is relevant too (R is closed upwards), one below stays below.  A card searched for a
 * group of equivalent cards (the same hand, no card out between) stands for the group:
 * where the group's top card is relevant the whole group is made relevant, so that in P'
 * the group is one too; a group below R maps to cards below R of the same hand and suit,
 * which the proof's card stands for as well.
 *
 * What each step of the search adds (_search.c): a trick's winner beating a card of its
 * own suit, that card and those above (trick_rel); a cut, the cutting card's answer's
 * relevance only; a node with no cut, every card's; the early stop's bounds, the cards
 * they read (bounds_rel: the trumps down to the first of a second side for the sure
 * trumps and what they force, which read only counts below them; with the runs of leads,
 * each suit down to the first card the leader does not hold); a table entry, its own
 * thresholds at this position.  It rests on the ground the pairwise trick winners of
 * _referee.c rest on (a trick to its highest trump, else the highest card of the suit
 * led); where the referee's answers leave that ground the engine stops using the entries.
 */
#include "_engine.h"

/* The form of suit ``s``'s set ``part`` of cards out with its top ``t`` kept: those
 * cards' holders in rank order (a counting card as such), the counting cards out and how
 * many other cards each seat holds; as two words */
static void part_form(const Engine *e, int s, uint64_t part, int t, uint64_t *a, uint64_t *b) {
    int start = e->suit_start[s], len = e->suit_len[s], seen = 0;
    uint64_t top = 1, counted = 0, counts = 0;
    for (int k = len - 1; k >= 0; k--) {
        if (!(part >> k & 1)) continue;
        int i = start + k, counting = (int)(e->counting >> i & 1);
        if (counting) counted |= 1ULL << k;
        if (seen < t) {
            top = top << 3 | (uint64_t)(counting ? 4 : e->owner[i]);
            seen++;
        } else if (!counting) {
            counts += 1ULL << (4 * e->owner[i]);
        }
    }
    *a = top;
    *b = counted | counts << 13 | (uint64_t)t << 29;
}

/* The forms of suit ``s``: for each threshold t and set of cards out, a number the same
 * for two sets of the same form at t and different otherwise (t included), numbered
 * densely; how many numbers (0 with an error) */
static int part_shapes(Engine *e, int s) {
    int len = e->suit_len[s], next = 0;
    uint64_t subsets = 1ULL << len, count = subsets * (uint64_t)(len + 1), size = 1;
    while (size < 2 * count) size <<= 1;
    e->part_id[s] = PyMem_Calloc(count, sizeof(uint16_t));
    uint64_t *codes = PyMem_Calloc(size * 2, sizeof(uint64_t));
    uint16_t *ids = PyMem_Calloc(size, sizeof(uint16_t));
    if (!e->part_id[s] || !codes || !ids) {
        PyMem_Free(codes);
        PyMem_Free(ids);
        PyErr_NoMemory();
        return 0;
    }
    for (int t = 0; t <= len; t++) {
        for (uint64_t part = 0; part < subsets; part++) {
            if (__builtin_popcountll(part) < t) continue;
            uint64_t a, b;
            part_form(e, s, part, t, &a, &b);
            uint64_t j = mix(a ^ mix(b)) & (size - 1);
            for (;;) {
                if (!codes[2 * j]) {
                    codes[2 * j] = a;
                    codes[2 * j + 1] = b;
                    ids[j] = (uint16_t)next++;
                    break;
                }
                if (codes[2 * j] == a && codes[2 * j + 1] == b) break;
                j = (j + 1) & (size - 1);
            }
            e->part_id[s][(uint64_t)t << len | part] = ids[j];
        }
    }
    PyMem_Free(codes);
    PyMem_Free(ids);
    return next;
}

/* A key holds the forms' numbers in KEY_BITS bits, bits 15 and 14 set (apart from the
 * points' keys and the margin's exact ones, which have them clear) */
#define KEY_BITS 59

int part_setup(Engine *e) {
    for (int i = 0; i < e->ncards; i++) {
        int s = e->suit_of[i];
        int end = e->suit_start[s] + e->suit_len[s];
        e->up_mask[i] = (end == 64 ? ~0ULL : (1ULL << end) - 1) & ~((1ULL << i) - 1);
    }
    /* the pips-margin search only, two sides, a key that fits */
    if (!e->pip_search || e->nsides != 2 || e->tt_wide || e->nsuits > 4) e->partition = 0;
    int bits = 0;
    for (int s = 0; s < e->nsuits && e->partition; s++) {
        int count = part_shapes(e, s);
        if (!count) return -1;
        e->part_shift[s] = bits;
        while (count > 1 << (bits - e->part_shift[s])) bits++;
    }
    if (bits > KEY_BITS) e->partition = 0;
    return 0;
}

void part_free(Engine *e) {
    for (int s = 0; s < MAX_SUITS; s++) {
        PyMem_Free(e->part_id[s]);
        e->part_id[s] = NULL;
    }
}

static inline uint64_t suit_part(const Engine *e, uint64_t remaining, int s) {
    return remaining >> e->suit_start[s] & ((1ULL << e->suit_len[s]) - 1);
}

/* the key of the position's forms at the thresholds ``tv`` (4 bits a suit) */
static uint64_t part_key(const Engine *e, uint64_t remaining, int leader, unsigned tv) {
    uint64_t code = 0;
    for (int s = 0; s < e->nsuits; s++) {
        int len = e->suit_len[s];
        uint64_t t = tv >> (4 * s) & 15;
        code |= (uint64_t)e->part_id[s][t << len | suit_part(e, remaining, s)] << e->part_shift[s];
    }
    return (code >> 11) << 16 | (code & 0x7ff) << 2 | 0xc000 | (uint64_t)leader;
}

/* The entries of a coarse form (its key at thresholds 0: the counting cards out, how many
 * other cards of each suit each seat holds, the leader) are kept in one region of
 * PART_REGION places of the table (adjacent cache lines), so that one look-up finds every
 * threshold its positions were kept at; each entry holds its thresholds and a tag of the
 * coarse form in the bytes the points' entries keep a second margin in. */
static inline uint64_t part_region(const Engine *e, uint64_t coarse) {
    return mix(coarse) & e->tt_mask & ~(uint64_t)(PART_REGION - 1);
}

static inline uint16_t part_tag(uint64_t coarse) {
    return (uint16_t)(mix(coarse ^ 0x5bd1e995ULL) >> 48) | 1;
}

static inline int is_part(const TTEntry *t, uint16_t tag) {
    uint16_t has;
    memcpy(&has, t->margin, 2);
    return t->depth && (t->key & 0xc000) == 0xc000 && has == tag;
}

static inline unsigned part_tv(const TTEntry *t) {
    uint8_t low = (uint8_t)t->lower[1], high = (uint8_t)t->upper[1];
    return (unsigned)low | (unsigned)high << 8;
}

/* the cards an entry of thresholds ``tv`` keeps at this position: each suit's top t out */
static uint64_t rel_at(const Engine *e, uint64_t remaining, unsigned tv) {
    uint64_t rel = 0;
    for (int s = 0; s < e->nsuits; s++) {
        int t = (int)(tv >> (4 * s) & 15);
        if (!t) continue;
        uint64_t part = remaining & e->up_mask[e->suit_start[s]];
        int i = 0;
        while (t--) {
            i = 63 - __builtin_clzll(part);
            part ^= 1ULL << i;
        }
        rel |= e->up_mask[i];
    }
    return rel;
}

void pt_key(Engine *e, uint64_t remaining, int leader, PartProbe *probe) {
    probe->coarse = part_key(e, remaining, leader, 0);
    const char *at = (const char *)&e->tt[part_region(e, probe->coarse)];
    for (int line = 0; line < PART_REGION * (int)sizeof(TTEntry); line += 64)
        __builtin_prefetch(at + line);
}

/* the card an entry keeps as its suit and place from the top among the cards out, and
 * back (-1: none, or not the leader's here) */
static int move_code(const Engine *e, uint64_t remaining, int card) {
    if (card < 0) return -1;
    int s = e->suit_of[card];
    return s << 4 | __builtin_popcountll(remaining & e->up_mask[card] & ~(1ULL << card));
}

static int move_card(const Engine *e, uint64_t remaining, int leader, int code) {
    if (code < 0) return -1;
    int s = code >> 4, above = code & 15;
    uint64_t part = remaining & e->up_mask[e->suit_start[s]];
    for (int k = 0; k < above && part; k++) part ^= 1ULL << (63 - __builtin_clzll(part));
    if (!part) return -1;
    int card = 63 - __builtin_clzll(part);
    return e->hands[leader] >> card & 1 ? card : -1;
}

void pt_read(Engine *e, uint64_t remaining, int leader, int alpha, int beta, PartProbe *probe) {
    probe->lower = -INF;
    probe->upper = INF;
    probe->move = -1;
    probe->rel = 0;
    if (!e->partition) return;
    uint64_t at = part_region(e, probe->coarse), lower_rel = 0, upper_rel = 0;
    uint16_t tag = part_tag(probe->coarse);
    for (int k = 0; k < PART_REGION; k++) {
        const TTEntry *t = &e->tt[at + (uint64_t)k];
        if (!is_part(t, tag)) continue;
        unsigned tv = part_tv(t);
        if (t->key != part_key(e, remaining, leader, tv)) continue;
        int lower = t->lower[0] == TT_NONE_LOW ? -INF : t->lower[0];
        int upper = t->upper[0] == TT_NONE_HIGH ? INF : t->upper[0];
        if (probe->move < 0) probe->move = move_card(e, remaining, leader, t->move);
        if (lower >= beta || upper <= alpha || lower == upper) {  /* this one settles it */
            probe->lower = lower;
            probe->upper = upper;
            probe->rel = rel_at(e, remaining, tv);
            return;
        }
        if (lower > alpha && lower > probe->lower) {
            probe->lower = lower;
            lower_rel = rel_at(e, remaining, tv);
        }
        if (upper < beta && upper < probe->upper) {
            probe->upper = upper;
            upper_rel = rel_at(e, remaining, tv);
        }
    }
    probe->rel = lower_rel | upper_rel;
}

void pt_store(Engine *e, const PartProbe *probe, uint64_t remaining, int leader, uint64_t rel,
              int lower, int upper, int move, int depth) {
    if (!e->partition) return;
    unsigned tv = 0;
    for (int s = 0; s < e->nsuits; s++) {
        unsigned t = (unsigned)__builtin_popcountll(rel & remaining & e->up_mask[e->suit_start[s]]);
        tv |= t << (4 * s);
    }
    STAT(e->st->stores[depth]++);
    STAT(e->st->part_out[depth] += __builtin_popcountll(remaining & ~e->counting));
    STAT(e->st->part_kept[depth] += __builtin_popcountll(rel & remaining & ~e->counting));
    uint64_t key = part_key(e, remaining, leader, tv), at = part_region(e, probe->coarse);
    uint16_t tag = part_tag(probe->coarse);
    TTEntry *slot = NULL, *victim = NULL;
    for (int k = 0; k < PART_REGION; k++) {
        TTEntry *t = &e->tt[at + (uint64_t)k];
        if (t->key == key && is_part(t, tag)) {
            slot = t;
            break;
        }
        if (!victim || (victim->depth && t->depth < victim->depth)) victim = t;
    }
    if (!slot) {
        slot = victim;
        STAT(e->st->evict[depth] += slot->depth != 0);
        STAT(e->st->evict_deeper[depth] += slot->depth > depth);
        memset(slot, 0, sizeof *slot);
        slot->key = key;
        slot->lower[0] = TT_NONE_LOW;
        slot->upper[0] = TT_NONE_HIGH;
        memcpy(slot->margin, &tag, 2);
        slot->lower[1] = (int8_t)(tv & 0xff);
        slot->upper[1] = (int8_t)(tv >> 8);
    }
    /* bounds found for the same form at the same thresholds: both hold */
    int8_t lo = lower_byte(lower), hi = upper_byte(upper);
    if (lo > slot->lower[0]) slot->lower[0] = lo;
    if (hi < slot->upper[0]) slot->upper[0] = hi;
    slot->move = (int8_t)move_code(e, remaining, move);
    slot->depth = (uint8_t)depth;
}

uint64_t trick_rel(const Engine *e, const int *cards, int count, int winner) {
    int winner_card = cards[0];
    for (int k = 0; k < count; k++)  /* each card has one holder: the winner's is its own */
        if (e->owner[cards[k]] == winner) winner_card = cards[k];
    int s = e->suit_of[winner_card];
    for (int k = 0; k < count; k++)
        if (cards[k] != winner_card && e->suit_of[cards[k]] == s) return e->up_mask[winner_card];
    return 0;
}

uint64_t bounds_rel(const Engine *e, int runs) {
    uint64_t remaining = e->remaining, rel = 0;
    int above = 0, last = -1;
    for (int k = 0; k < e->nsure; k++) {
        int i = e->sure_order[k];
        if (!(remaining >> i & 1)) continue;
        last = i;
        above |= 1 << e->side_of[e->owner[i]];
        if (above & (above - 1)) break;
    }
    if (last >= 0) rel |= e->up_mask[last];
    if (!runs) return rel;
    uint64_t hand = e->hands[e->leader];
    for (int s = 0; s < e->nsuits; s++) {
        uint64_t part = remaining & e->up_mask[e->suit_start[s]];
        int i = -1;
        while (part) {
            i = 63 - __builtin_clzll(part);
            part ^= 1ULL << i;
            if (!(hand >> i & 1)) break;
        }
        if (i >= 0) rel |= e->up_mask[i];
    }
    return rel;
}

uint64_t group_rel(const Engine *e, int pos, uint64_t legal, uint64_t rel) {
    uint64_t outside = e->remaining & ~e->hands[pos];
    for (int k = 0; k < e->ntrick; k++) outside |= 1ULL << e->trick_card[k];
    int first = -1, last = -1;
    for (uint64_t m = legal;; m &= m - 1) {
        int i = m ? lowest(m) : -1;
        if (i >= 0 && last >= 0 && e->suit_of[i] == e->suit_of[last] &&
            !(e->counting >> i & 1) && !(e->counting >> last & 1) &&
            !(((1ULL << i) - 1) & ~((2ULL << last) - 1) & outside)) {
            last = i;
            continue;
        }
        /* the group first..last ends: its top relevant, the whole group */
        if (first >= 0 && last != first && (rel >> last & 1)) rel |= e->up_mask[first];
        if (i < 0) break;
        first = last = i;
    }
    return rel;
}
