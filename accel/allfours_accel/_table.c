/*
 * The transposition table at trick boundaries: keyed by the cards still out in canonical
 * form (per suit, in rank order, the holders and the counting cards), the leader and the
 * pips state; four entries of 16 bytes a bucket (a cache line), the shallowest put out
 * on a clash.  Also the enhanced
 * transposition cutoff tried before the last card of a trick is searched.
 */
#include "_engine.h"
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* The canonical form of each set of one suit's cards still out: the same number for two
 * sets with, in rank order, the same holders and the same counting cards (the number is
 * the first set met with that form). */
int suit_shapes(Engine *e, int s) {
    int start = e->suit_start[s], len = e->suit_len[s];
    uint64_t subsets = 1ULL << len, size = subsets * 2;
    e->suit_id[s] = PyMem_Calloc(subsets, sizeof(uint16_t));
    uint64_t *codes = PyMem_Calloc(size, sizeof(uint64_t));
    uint16_t *firsts = PyMem_Calloc(size, sizeof(uint16_t));
    if (!e->suit_id[s] || !codes || !firsts) {
        PyMem_Free(codes);
        PyMem_Free(firsts);
        PyErr_NoMemory();
        return -1;
    }
    for (uint64_t part = 0; part < subsets; part++) {
        uint64_t code = 1, counted = 0;  /* the leading 1 marks the length */
        for (int k = 0; k < len; k++) {
            if (!(part >> k & 1)) continue;
            int i = start + k;
            if (e->counting >> i & 1) {
                code = code << 3 | 4;
                counted |= 1ULL << k;
            } else {
                code = code << 3 | (uint64_t)e->owner[i];
            }
        }
        code = code << 13 | counted;
        uint64_t j = mix(code) & (size - 1);
        for (;;) {
            if (!codes[j]) {
                codes[j] = code;
                firsts[j] = (uint16_t)part;
                break;
            }
            if (codes[j] == code) break;
            j = (j + 1) & (size - 1);
        }
        e->suit_id[s][part] = firsts[j];
    }
    PyMem_Free(codes);
    PyMem_Free(firsts);
    return 0;
}

/* The tables are looked up at random: on Linux a large one is mapped apart, so that once
 * a search proves long (table_promote) it can be put in huge pages where the system lends
 * them (madvise), which spares most of the address translations that miss on tables of
 * tens of megabytes -- not from the start, since a huge page is cleared whole when first
 * touched, which a short search touching a few entries would pay for every page; then
 * the table is copied to a fresh mapping advised before it is touched (a mapping whose
 * small pages are already in use keeps them).  A small table, or one elsewhere, is
 * ordinary memory.  Each block starts with a header
 * that says which. */
#define TABLE_HEADER 64

/* zeroed memory for ``count`` entries of ``size`` bytes; ``advise``: a long search's, put
 * in huge pages from the start */
static void *table_map(size_t count, size_t size, int advise) {
    size_t bytes = count * size + TABLE_HEADER;
    char *base = NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= (8 << 20)) {
        void *mapped = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
        if (mapped != MAP_FAILED) {
            if (advise) madvise(mapped, bytes, MADV_HUGEPAGE);  /* a hint, as below */
            base = mapped;
            *(size_t *)base = bytes;
        }
    }
#endif
    (void)advise;
    if (!base) {
        base = PyMem_Calloc(1, bytes);
        if (!base) return NULL;
        *(size_t *)base = 0;
    }
    return base + TABLE_HEADER;
}

void *table_calloc(size_t count, size_t size) { return table_map(count, size, 0); }

void *table_promote(void *table) {
    if (!table) return table;
    char *base = (char *)table - TABLE_HEADER;
    size_t mapped = *(size_t *)base;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (mapped) {
        char *fresh = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                           -1, 0);
        if (fresh == MAP_FAILED) return table;  /* it stays where it is */
        madvise(fresh, mapped, MADV_HUGEPAGE);  /* a hint: refused, pages stay small */
        memcpy(fresh, base, mapped);
        munmap(base, mapped);
        return fresh + TABLE_HEADER;
    }
#endif
    (void)mapped;
    return table;
}

void table_free(void *table) {
    if (!table) return;
    char *base = (char *)table - TABLE_HEADER;
    size_t mapped = *(size_t *)base;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (mapped) {
        munmap(base, mapped);
        return;
    }
#endif
    (void)mapped;
    PyMem_Free(base);
}

int tt_alloc(Engine *e, size_t entries) {
    e->tt_wide = e->ncards > 48;
    e->tt = table_calloc(entries, sizeof(TTEntry));
    if (!e->tt) {
        PyErr_NoMemory();
        return -1;
    }
    e->tt_mask = entries - 1;
    return 0;
}

void tt_free(Engine *e) {
    table_free(e->tt);
    e->tt = NULL;
}

/* The table made TT_GROWTH times larger, once, when a search proves long (``grow_after``
 * nodes): a twelve-card search overloads the 2^23 entries it starts with (4x12 deal 1
 * 464 -> 284 M nodes with four times the entries, deal 2 909 -> 474 M), while
 * most searches are short and would pay for memory they never use (issue 40).  Each
 * exact entry is put in again at its place in the larger table.  A partition entry's
 * region is chosen by a form the entry does not keep, so each region is copied to every
 * place of the larger table it may have moved to (the same place in each of its
 * TT_GROWTH parts), there the first entries to give way (depth PART_COPY_DEPTH) -- a copy
 * where its form is never looked up is only room taken until then.  Without the memory
 * the table stays as it is. */
#define PART_COPY_DEPTH 1

static uint64_t bucket_of(uint64_t shape, uint16_t rest_key, uint64_t mask);

/* whether an entry is a partition entry (_partition.c: two bits of its key) */
static int is_partition_entry(const Engine *e, const TTEntry *t) {
    return e->partition && (t->key & 0xc000) == 0xc000;
}

void tt_grow(Engine *e) {
    size_t old_count = (size_t)e->tt_mask + 1, count = old_count * TT_GROWTH;
    TTEntry *fresh = table_map(count, sizeof(TTEntry), 1);
    if (!fresh) return;
    uint64_t mask = count - 1;
    /* the old table and the new one are both held while the entries are copied (640 MB
     * for a moment, for twelve cards) */
    for (size_t i = 0; i < old_count; i++) {  /* the partition entries' copies first */
        const TTEntry *t = &e->tt[i];
        if (!t->depth || !is_partition_entry(e, t)) continue;
        for (size_t k = 0; k < TT_GROWTH; k++) {
            TTEntry *copy = &fresh[i + k * old_count];
            *copy = *t;
            copy->depth = PART_COPY_DEPTH;
        }
    }
    for (size_t i = 0; i < old_count; i++) {  /* then the exact entries, in their places */
        const TTEntry *t = &e->tt[i];
        if (!t->depth || is_partition_entry(e, t)) continue;
        /* the entry's key as tt_entry_key made it (see TTEntry) */
        uint64_t at = e->tt_wide
            ? bucket_of(t->key, (uint16_t)((uint8_t)t->lower[1] | (uint8_t)t->upper[1] << 8), mask)
            : bucket_of(t->key >> 16, (uint16_t)(t->key & 0xffff), mask);
        TTEntry *victim = NULL;
        for (int k = 0; k < TT_WAYS; k++) {
            TTEntry *slot = &fresh[at + (uint64_t)k];
            if (!victim || (victim->depth && slot->depth < victim->depth)) victim = slot;
        }
        if (!victim->depth || victim->depth < t->depth) *victim = *t;
    }
    table_free(e->tt);
    e->tt = fresh;
    e->tt_mask = mask;
}

static uint64_t shape_of(const Engine *e, uint64_t remaining) {
    uint64_t out = 0;
    for (int s = 0; s < e->nsuits; s++) {
        int len = e->suit_len[s];
        uint64_t part = remaining >> e->suit_start[s] & ((1ULL << len) - 1);
        out = out << len | e->suit_id[s][part];
    }
    return out;
}

static uint64_t bucket_of(uint64_t shape, uint16_t rest_key, uint64_t mask) {
    return mix(shape ^ ((uint64_t)rest_key << 48)) & mask & ~(uint64_t)(TT_WAYS - 1);
}

static uint64_t tt_bucket(const Engine *e, const TTProbe *probe) {
    return bucket_of(probe->shape, probe->rest_key, e->tt_mask);
}

/* The key kept in an entry, and whether an entry is the position's (see TTEntry) */
static uint64_t tt_entry_key(const Engine *e, const TTProbe *probe) {
    return e->tt_wide ? probe->shape : probe->shape << 16 | probe->rest_key;
}

static int tt_matches(const Engine *e, const TTEntry *t, uint64_t key, uint16_t rest) {
    if (!t->depth || t->key != key) return 0;
    return !e->tt_wide || ((uint16_t)(uint8_t)t->lower[1] | (uint16_t)(uint8_t)t->upper[1] << 8) == rest;
}

/* The key of the position (the first half of tt_find), its bucket asked of memory ahead */
static void tt_key(Engine *e, uint64_t remaining, const int *pv, int rest, int leader,
                   TTProbe *probe) {
    probe->shape = shape_of(e, remaining);
    int pipkey = 0, margin = 0;
    if (e->pipmode) {  /* the pips-margin search: bounds on the margin from here on */
        probe->margin = 0;
        probe->rest_key = (uint16_t)(0x8000 | leader);
        __builtin_prefetch(&e->tt[tt_bucket(e, probe)]);
        return;
    }
    if (e->clip) {
        margin = pv[0] - pv[1];
        if (margin > rest) margin = rest + 1;
        else if (margin < -rest) margin = -rest - 1;
        if (!e->monotone) {
            pipkey = margin + 128;
            margin = 0;
        }
    } else if (e->nsides == 2) {
        pipkey = pv[0];
    } else {
        pipkey = pv[0] << 7 | pv[1];
    }
    probe->margin = margin;
    probe->rest_key = (uint16_t)(pipkey << 2 | leader);
    __builtin_prefetch(&e->tt[tt_bucket(e, probe)]);
}

/* What the table says at the key of ``probe`` (the second half of tt_find) */
static void tt_read(Engine *e, TTProbe *probe) {
    probe->lower = -INF;
    probe->upper = INF;
    probe->move = -1;
    uint64_t at = tt_bucket(e, probe), key = tt_entry_key(e, probe);
    int margins = e->tt_wide ? 1 : TT_MARGINS;
    for (int k = 0; k < TT_WAYS; k++) {
        const TTEntry *t = &e->tt[at + (uint64_t)k];
        if (!tt_matches(e, t, key, probe->rest_key)) continue;
        probe->move = t->move;
        for (int j = 0; j < margins; j++) {
            if (t->margin[j] == TT_UNUSED) continue;
            int lower = t->lower[j] == TT_NONE_LOW ? -INF : t->lower[j];
            int upper = t->upper[j] == TT_NONE_HIGH ? INF : t->upper[j];
            if (t->margin[j] <= probe->margin && lower > probe->lower) probe->lower = lower;
            if (t->margin[j] >= probe->margin && upper < probe->upper) probe->upper = upper;
        }
        return;
    }
}

/* The transposition table at the trick boundary with ``remaining`` still out, the pips
 * ``pv`` taken (``rest`` still to take) and ``leader`` to lead, into ``probe``.
 *
 * Two sides: where Game is the same for every split with the first side ahead (and for
 * every one with it behind), the key has the margin clipped at the pips still to win.
 * Where Game is moreover never worth less to the first side for more of its pips
 * (``monotone``, asked of the scorer), the key leaves the margin out and an entry keeps
 * the bounds found at up to TT_MARGINS margins: a lower bound found at one margin holds
 * at every larger one (whatever the play, each line ends with the first side's margin
 * larger, so with Game worth no less and the Jack and Low the same), an upper bound at
 * every smaller one -- as the Python solver's ``margins``. */
void tt_find(Engine *e, uint64_t remaining, const int *pv, int rest, int leader,
             TTProbe *probe) {
    tt_key(e, remaining, pv, rest, leader, probe);
    tt_read(e, probe);
}

/* Keeps the bounds ``lower`` and ``upper`` and the best card found at the position of
 * ``probe``: in its entry when there is one, else in an empty place of the bucket, else
 * in place of its shallowest entry; at its margin, else in a free place, else in place of
 * the margin farthest from it */
void tt_store(Engine *e, const TTProbe *probe, int lower, int upper, int move, int depth) {
    /* looked up again: while the position was searched its entry may have given way to
     * another position's, and the table may have moved (table_promote) */
    uint64_t at = tt_bucket(e, probe), key = tt_entry_key(e, probe);
    TTEntry *slot = NULL, *victim = NULL;
    STAT(e->st->stores[depth]++);
    for (int k = 0; k < TT_WAYS; k++) {
        TTEntry *t = &e->tt[at + (uint64_t)k];
        if (tt_matches(e, t, key, probe->rest_key)) {
            slot = t;
            break;
        }
        if (!victim || (victim->depth && t->depth < victim->depth)) victim = t;
    }
    int margins = e->tt_wide ? 1 : TT_MARGINS;
    if (!slot) {
        slot = victim;
        STAT(e->st->evict[depth] += slot->depth != 0);
        STAT(e->st->evict_deeper[depth] += slot->depth > depth);
        memset(slot, 0, sizeof *slot);
        slot->key = key;
        for (int j = 0; j < TT_MARGINS; j++) slot->margin[j] = TT_UNUSED;
        if (e->tt_wide) {
            slot->lower[1] = (int8_t)(probe->rest_key & 0xff);
            slot->upper[1] = (int8_t)(probe->rest_key >> 8);
        }
    }
    int place = -1, far = -1;
    for (int j = 0; j < margins; j++) {
        if (slot->margin[j] == TT_UNUSED) {
            if (far < INF) {
                place = j;
                far = INF;
            }
            continue;
        }
        if (slot->margin[j] == probe->margin) {
            place = j;
            break;
        }
        int gap = abs(slot->margin[j] - probe->margin);
        if (gap > far) {
            place = j;
            far = gap;
        }
    }
    slot->lower[place] = lower_byte(lower);
    slot->upper[place] = upper_byte(upper);
    slot->margin[place] = (int8_t)probe->margin;
    slot->move = (int8_t)move;
    slot->depth = (uint8_t)depth;
}

/* Before the last card of a trick is searched: whether the table already proves that one
 * of ``moves`` cuts (an enhanced transposition cutoff); its value, or INT32_MIN */
int table_cut(Engine *e, int pos, const int *moves, int count, int alpha, int beta) {
    if (__builtin_popcountll(e->remaining) - 1 <= e->n) return INT32_MIN;
    /* the keys first, each asked of memory ahead, then the look-ups: the misses overlap */
    TTProbe probes[MAX_CARDS];
    PartProbe parts[MAX_CARDS];  /* a position of the pips-margin search: its partition entries */
    int values[MAX_CARDS], pivs[MAX_CARDS][3], margins[MAX_CARDS], winners[MAX_CARDS];
    int pipmode = e->pipmode;
    for (int k = 0; k < count; k++) {
        int i = moves[k];
        int w = winner_of(e, i);
        if (e->err) return INT32_MIN;
        winners[k] = w;
        int gain = e->pips[i], value = 0;
        if (i == e->jack) value += e->jack_value[w];
        if (i == e->low) value += e->low_value[w];
        for (int t = 0; t < e->ntrick; t++) {
            int c = e->trick_card[t];
            gain += e->pips[c];
            if (c == e->jack) value += e->jack_value[w];
            if (c == e->low) value += e->low_value[w];
        }
        int *pv = pivs[k];
        memcpy(pv, e->pv, sizeof pivs[k]);
        pv[e->side_of[w]] += gain;
        uint64_t left = e->remaining ^ (1ULL << i);
        /* a position where Game alone is open is kept as the pips-margin search keeps it
         * (pip_enter): margins[k] 1 when its bounds are margins to turn into values */
        int items = 0;
        margins[k] = !pipmode && e->pip_search && game_only(e, left, &items);
        if (pipmode) value = e->side_of[w] ? -gain : gain;
        e->pipmode = pipmode || margins[k];
        if (e->partition && e->pipmode) pt_key(e, left, w, &parts[k]);
        else tt_key(e, left, pv, e->rest - gain, w, &probes[k]);
        e->pipmode = pipmode;
        values[k] = value + items;
    }
    for (int k = 0; k < count; k++) {
        TTProbe *probe = &probes[k];
        int value = values[k], lower, upper, part = e->partition && (pipmode || margins[k]);
        if (part) {
            /* the window of the child: what would cut (a value of the margin's search
             * only there; any bound where the child would enter it) */
            PartProbe *p = &parts[k];
            uint64_t left = e->remaining ^ (1ULL << moves[k]);
            if (pipmode) pt_read(e, left, winners[k], alpha - value, beta - value, p);
            else pt_read(e, left, winners[k], -INF, INF, p);
            lower = p->lower;
            upper = p->upper;
        } else {
            tt_read(e, probe);
            lower = probe->lower;
            upper = probe->upper;
        }
        if (margins[k]) {  /* Game's value at the split each bound on the margin allows */
            int rest = e->rest - (pivs[k][0] + pivs[k][1] - e->pv[0] - e->pv[1]);
            int split[3] = {0, 0, 0};
            if (lower > -INF) {
                if (lower > rest) lower = rest;
                if (lower < -rest) lower = -rest;
                int x = (lower + rest + 1) / 2;
                split[0] = pivs[k][0] + x;
                split[1] = pivs[k][1] + rest - x;
                lower = game_value(e, split);
            }
            if (upper < INF) {
                if (upper < -rest) upper = -rest;
                if (upper > rest) upper = rest;
                int x = (upper + rest) / 2;
                split[0] = pivs[k][0] + x;
                split[1] = pivs[k][1] + rest - x;
                upper = game_value(e, split);
            }
            if (e->err) return INT32_MIN;
        }
        if (e->maximises[pos] ? value + lower >= beta : value + upper <= alpha) {
            e->table_hits++;
            if (part && pipmode) {  /* the entry's cards, and those the trick compared */
                int cards[MAX_SEATS];
                memcpy(cards, e->trick_card, (size_t)e->ntrick * sizeof(int));
                cards[e->ntrick] = moves[k];
                e->rel = parts[k].rel | trick_rel(e, cards, e->ntrick + 1, winners[k]);
            }
            return e->maximises[pos] ? value + lower : value + upper;
        }
    }
    return INT32_MIN;
}
