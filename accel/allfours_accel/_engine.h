/*
 * What the four C files of the compiled search share: the engine's state and the
 * functions each file lends the others.  The files are cut along the engine's seams:
 *
 *   _referee.c  what the referee and the scorer answer (legal cards, a trick's winner,
 *               Game's value), asked of Python once and kept in tables;
 *   _table.c    the transposition table: the canonical form of the cards still out, the
 *               look-up, the store and the enhanced transposition cutoff;
 *   _bounds.c   the early stop's bounds on what the items still open can be worth;
 *   _partition.c  the pips-margin search's table of partition entries (an entry for
 *               every position that differs only in cards no trick of its proof
 *               compared) and the relevance each answer carries up;
 *   _search.c   the search itself (alpha-beta, the null-window tests);
 *   _module.c   the engine and the module as Python sees them.
 *
 * None of them knows a rule of All Fours (see _search.c).
 */
#ifndef ALLFOURS_ACCEL_ENGINE_H
#define ALLFOURS_ACCEL_ENGINE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_CARDS 64
#define MAX_SEATS 4
#define MAX_SUITS 8
#define INF 30000
#define CLOCK_EVERY 16383
#define LONG_SEARCH (1 << 18)  /* nodes: then the tables go to huge pages */
#define WIN_FORMS_MASK ((1ULL << 16) - 1)

/* A transposition table entry, 16 bytes, four to a 64-byte bucket (one cache line).
 * ``key`` is the canonical shape of the cards still out and, below it, the leader and
 * pips state (``rest``: 16 bits), when the shape fits in 48 bits (48 cards or fewer in
 * play: every deal of the profiles); a wider deal keys on the shape alone and keeps
 * ``rest`` in the second margin's place.  The bounds found at up to TT_MARGINS pips
 * margins (two sides, Game monotone: see tt_find), as bytes: a bound that does not fit
 * is kept weaker (a lower bound lowered, an upper raised), -128 and 127 meaning none;
 * a margin of -128 marks a place not used. */
#define TT_MARGINS 2
#define TT_WAYS 4
#define TT_NONE_LOW (-128)
#define TT_NONE_HIGH 127
#define TT_UNUSED (-128)
#define TT_GROWTH 4
#define GROW_AFTER (1LL << 24)  /* nodes: then the table grows (tt_grow), by default */

typedef struct {
    uint64_t key;
    int8_t move;
    uint8_t depth;   /* cards still out (0: empty): the entry kept on a clash is the deeper */
    int8_t lower[TT_MARGINS], upper[TT_MARGINS], margin[TT_MARGINS];
} TTEntry;

/* What the table says of a position: the bounds at its margin (those kept at other
 * margins included), its best card, and the key */
typedef struct {
    uint64_t shape;
    uint16_t rest_key;
    int margin;
    int lower, upper, move;
} TTProbe;

/* What the partition entries say of a position (_partition.c): the bounds from the
 * entries that narrow the window asked, the cards their proofs compared (``rel``), the
 * best card; and the key of the position's coarse form (where its entries are) */
typedef struct {
    uint64_t coarse;
    int lower, upper, move;
    uint64_t rel;
} PartProbe;

#define PART_REGION 16

typedef struct {
    uint64_t hand;   /* 0: empty slot (no hand asked about is empty) */
    uint32_t trick;
    uint64_t legal;
} LegalEntry;

/* A question of legal cards in canonical form (see ``legal_form``) and its answer: which
 * of the hand's cards, counted in card order, may be played. */
typedef struct {
    uint64_t form[4];  /* form[0] == 0: empty slot */
    uint64_t legal;
} FormEntry;

typedef struct {
    uint32_t trick;  /* 0: empty slot */
    int8_t winner;
} WinnerEntry;

/* A hand met in working out a run's least replies (_bounds.c), kept for one call */
typedef struct {
    uint64_t hand, every;
    uint32_t epoch;
    int pips;
} RunMemo;

#define RUN_MEMO 1024
/* What a search did, counted only in a build made with -DAFN_SEARCH_STATS (for finding
 * where a search grows: `CFLAGS=-DAFN_SEARCH_STATS pip install ./accel`, then
 * `python -m bench.search_profile`); the release build counts nothing of it. */
#ifdef AFN_SEARCH_STATS
#define STAT(x) (x)
#define STAT_TESTS 24
#define STAT_ROOT 16
typedef struct {
    /* per cards still out and cards on the table */
    long long nodes[MAX_CARDS + 1][MAX_SEATS];
    long long cuts[MAX_CARDS + 1][MAX_SEATS], cut_first[MAX_CARDS + 1][MAX_SEATS];
    long long cut_index[MAX_CARDS + 1][MAX_SEATS];  /* sum of the cutting card's place */
    long long children[MAX_CARDS + 1][MAX_SEATS];   /* cards searched */
    long long settled[MAX_CARDS + 1], probes[MAX_CARDS + 1], found[MAX_CARDS + 1];
    long long tt_cut[MAX_CARDS + 1], hint_used[MAX_CARDS + 1];
    long long stores[MAX_CARDS + 1], evict[MAX_CARDS + 1], evict_deeper[MAX_CARDS + 1];
    long long etc_tries[MAX_CARDS + 1], etc_fires[MAX_CARDS + 1];
    /* partition entries stored: the cards without pips out, and those kept relevant */
    long long part_out[MAX_CARDS + 1], part_kept[MAX_CARDS + 1];
    /* nodes of the pips-margin search (the others are the points' search) */
    long long pip_nodes[MAX_CARDS + 1];
    /* per null-window test of the last solve: its beta, its value, its nodes; and the
     * nodes under each card of the root */
    int ntests;
    int test_beta[STAT_TESTS], test_value[STAT_TESTS];
    long long test_nodes[STAT_TESTS];
    int root_count[STAT_TESTS], root_card[STAT_TESTS][STAT_ROOT];
    long long root_nodes[STAT_TESTS][STAT_ROOT];
    int root_depth, root_ntrick, in_test;
    /* cut nodes by where the first card came from (0 the static order, 1 the table, 2 the
     * killer) and whether it cut; of those cut later, the kinds of the first card and of
     * the cutting one (bits: wins the trick so far, a trump, has pips) */
    long long source[MAX_SEATS][3][2];
    long long kinds[MAX_SEATS][8][8];
} SearchStats;
#else
#define STAT(x) ((void)0)
#endif

typedef struct {
    PyObject_HEAD
    int n, ncards, nsides, total;
    int owner[MAX_CARDS], pips[MAX_CARDS], suit_of[MAX_CARDS];
    int lead_key[MAX_CARDS], cheap_key[MAX_CARDS], win_key[MAX_CARDS];
    /* the cards a trick with one of them in it goes to the highest of (the trumps),
     * highest first: a side holding every higher one still out is sure of one */
    int sure_order[MAX_CARDS], nsure;
    uint64_t trumps;  /* the same cards as a set */
    int pairwise;     /* the trick winners kept per pair of cards (see winner_of) */
    int8_t pair_beats[MAX_CARDS][MAX_CARDS];  /* 0: not known; 1: the first; 2: the second */
    int forcing;  /* the early stop credits what sure trumps and winning leads force */
    /* Game the only item left (see pip_enter in _search.c): searched as the first side's
     * pips margin from here on; ``pip_search`` whether it may be, ``pipmode`` whether the
     * search is in that mode now (its values then that margin, not points) */
    int pip_search, pipmode;
    /* partition search in the pips-margin search (_partition.c): whether it is on; whether
     * the legal cards may compare a held trump's rank with the highest trump on the table
     * (told by Python); per card the cards of its suit from it up; per suit the forms of
     * its sets of cards out at each threshold, numbered densely, and where its number
     * goes in a key; and the relevance of the answer search() last returned (a set of
     * cards closed upwards in each suit) */
    int partition, legal_ranks;
    uint64_t up_mask[MAX_CARDS];
    uint16_t *part_id[MAX_SUITS];
    int part_shift[MAX_SUITS];
    uint64_t rel;
    RunMemo run_memo[RUN_MEMO];
    uint32_t run_epoch;
    uint64_t pip_class[12];  /* the cards by pips, cheapest first (0: no pips) */
    int class_pips[12], nclasses;
    uint64_t counting;
    uint64_t named;  /* the cards a rule of play may name (the Jack, Low): kept by name */
    int jack, low;
    int jack_value[MAX_SEATS], low_value[MAX_SEATS];
    int jack_lo, jack_hi, low_lo, low_hi;
    int next_pos[MAX_SEATS], side_of[MAX_SEATS], maximises[MAX_SEATS];
    int nsuits, suit_start[MAX_SUITS], suit_len[MAX_SUITS];
    uint16_t *suit_id[MAX_SUITS];
    PyObject *legal_cb, *winner_cb, *game_cb, *timeout_type;
    PyObject *clock;
    double deadline;
    int has_deadline;
    int *game;        /* game value per final split; INT32_MIN: not asked yet */
    int *bound_lo, *bound_hi;  /* Game's range from a pips state; INT32_MIN: not yet */
    int clip;
    int monotone;  /* two sides: Game never worth less to the first for more of its pips */
    TTEntry *tt;
    uint64_t tt_mask;
    int tt_wide;  /* more than 48 cards: the key is the shape alone (see TTEntry) */
    LegalEntry *legal;
    uint64_t legal_mask, legal_used;
    FormEntry *forms;
    uint64_t form_mask, form_used;
    WinnerEntry *win;
    uint64_t win_mask, win_used;
    uint64_t *win_forms;  /* a trick in canonical form (0: empty) ... */
    int8_t *win_form_answer;  /* ... and which of its plays wins */
    uint64_t win_form_used;
    int killer[MAX_CARDS + 1][MAX_SEATS];
    /* the position */
    uint64_t hands[MAX_SEATS];
    uint64_t remaining;
    int trick_pos[MAX_SEATS], trick_card[MAX_SEATS], ntrick;
    int leader;
    int pv[3];
    int rest;
    /* what it has done */
    long long nodes, table_hits, settled;
    int advised;  /* the tables put in huge pages (a long search) */
    long long grow_after;  /* nodes after which the table grows, once (0: never) */
    int grown;
    int err;
#ifdef AFN_SEARCH_STATS
    SearchStats *st;
#endif
} Engine;

/* --- small helpers ------------------------------------------------------------------- */

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }

/* a bound as a byte: one that does not fit is kept weaker (a lower bound lowered, an
 * upper one raised), the extremes meaning none */
static inline int8_t lower_byte(int lower) {
    return (int8_t)(lower <= TT_NONE_LOW ? TT_NONE_LOW : lower > TT_NONE_HIGH - 1 ? TT_NONE_HIGH - 1 : lower);
}

static inline int8_t upper_byte(int upper) {
    return (int8_t)(upper >= TT_NONE_HIGH ? TT_NONE_HIGH : upper < TT_NONE_LOW + 1 ? TT_NONE_LOW + 1 : upper);
}

static inline uint32_t trick_code(const Engine *e, int extra) {
    /* the cards on the table (and ``extra`` when >= 0) as one number, 7 bits a card */
    uint32_t code = 0;
    for (int k = 0; k < e->ntrick; k++) code = code << 7 | (uint32_t)(e->trick_card[k] + 1);
    if (extra >= 0) code = code << 7 | (uint32_t)(extra + 1);
    return code;
}

static inline int fail(Engine *e) {
    e->err = 1;
    return 0;
}

/* --- _search.c: the search (alpha-beta, fail-soft) ---------------------------------------- */

/* The value of the position after the card moves_at put at index i of position pos. */
int child(Engine *e, int pos, int i, int alpha, int beta);
/* The value of the position within (alpha, beta), fail-soft. */
int search(Engine *e, int alpha, int beta);
/* The exact value of the position set, by null-window tests. */
int exact(Engine *e);

/* --- _referee.c: what the referee says, asked once ------------------------------------ */

/* the cards ``pos`` may play from ``hand`` to the trick on the table */
uint64_t legal_moves(Engine *e, int pos, uint64_t hand);
/* who wins the trick on the table with card ``extra`` played to it (-1: none) */
int winner_of(Engine *e, int extra);
/* Game's value for the final pips ``pv`` (per side) */
int game_value(Engine *e, const int *pv);
/* the least and the most Game can still be worth with ``pv`` taken, ``rest`` to take */
void game_bounds(Engine *e, const int *pv, int rest, int *lo, int *hi);

/* --- _bounds.c: the early stop ----------------------------------------------------------- */

/* at a trick boundary: the least and the most the items still open can be worth, from
 * what each side is sure of whoever plays what (into c) ... */
typedef struct {
    int low, high;  /* the bounds */
    int forcing;    /* the credits of what is forced are in (low, high) */
    uint64_t won[3], sure_mask[3];
    int own[3], sure[3], extra[3];
} Credit;

void open_bounds(Engine *e, int alpha, int beta, Credit *c);
/* ... and narrowed by the side on lead's runs of winning leads (after open_bounds) */
void led_bounds(Engine *e, int alpha, int beta, Credit *c);
/* the pips the side on lead is sure of with its best run of winning leads (the credit of
 * led_bounds as pips, for the pips-margin search), or -1 when it has no run */
int led_pips(Engine *e, const Credit *c);

/* whether an item's card (the Jack, Low) is settled with ``remaining`` out: gone (or not
 * in the deal; *value 0), or sure to go to one side whoever plays what -- a trump every
 * higher one of which still out is that side's (bounds.sure_items) -- and worth the same
 * to each seat of that side (*value that) */
static inline int item_settled(const Engine *e, int card, const int *values, uint64_t remaining,
                               int *value) {
    *value = 0;
    if (card < 0 || !(remaining >> card & 1)) return 1;
    if (!(e->trumps >> card & 1)) return 0;
    int side = e->side_of[e->owner[card]];
    for (int k = 0; k < e->nsure && e->sure_order[k] != card; k++) {
        int i = e->sure_order[k];
        if ((remaining >> i & 1) && e->side_of[e->owner[i]] != side) return 0;
    }
    int first = 1;
    for (int p = 0; p < e->n; p++) {
        if (e->side_of[p] != side) continue;
        if (first) *value = values[p];
        else if (values[p] != *value) return 0;
        first = 0;
    }
    return 1;
}

/* whether Game is the only item still open with ``remaining`` out, the Jack and Low gone
 * or settled (what they are still worth into *items) */
static inline int game_only(const Engine *e, uint64_t remaining, int *items) {
    int jack, low;
    if (!item_settled(e, e->jack, e->jack_value, remaining, &jack) ||
        !item_settled(e, e->low, e->low_value, remaining, &low))
        return 0;
    *items = jack + low;
    return 1;
}

/* --- _table.c: the transposition table ------------------------------------------------ */

/* the canonical forms of suit ``s``'s sets of cards still out (0, or -1 with an error) */
int suit_shapes(Engine *e, int s);
/* zeroed memory for a table looked up at random (NULL: none), the same table moved to
 * huge pages once it proves to be looked up long (the table, moved or not), and its
 * release */
void *table_calloc(size_t count, size_t size);
void *table_promote(void *table);
void table_free(void *table);
/* the table of ``entries`` entries, empty (-1 with an error set), and its release */
int tt_alloc(Engine *e, size_t entries);
void tt_free(Engine *e);
/* the table made TT_GROWTH times larger, its exact entries kept (a long search: see
 * grow_after) */
void tt_grow(Engine *e);
void tt_find(Engine *e, uint64_t remaining, const int *pv, int rest, int leader,
             TTProbe *probe);
void tt_store(Engine *e, const TTProbe *probe, int lower, int upper, int move, int depth);
int table_cut(Engine *e, int pos, const int *moves, int count, int alpha, int beta);

/* --- _partition.c: partition search in the pips-margin search --------------------------- */

/* whether the deal allows partition entries, and their forms (-1 with an error) */
int part_setup(Engine *e);
void part_free(Engine *e);
/* the partition entries at the trick boundary with ``remaining`` out, ``leader`` to
 * lead: the coarse form's key (its region asked of memory ahead) and then the look-up
 * within (alpha, beta) */
void pt_key(Engine *e, uint64_t remaining, int leader, PartProbe *probe);
void pt_read(Engine *e, uint64_t remaining, int leader, int alpha, int beta, PartProbe *probe);
void pt_store(Engine *e, const PartProbe *probe, uint64_t remaining, int leader, uint64_t rel,
              int lower, int upper, int move, int depth);
/* the cards a completed trick's winner (the seat ``winner``) compared: its card and those
 * above, when it beat a card of its own suit */
uint64_t trick_rel(const Engine *e, const int *cards, int count, int winner);
/* the cards the early stop's bounds read at a trick boundary (the sure trumps; with
 * ``runs``, the runs of leads too) */
uint64_t bounds_rel(const Engine *e, int runs);
/* the relevance of a node that searched every card of ``legal`` (one of each group of
 * equivalent cards): a group whose top card is relevant made relevant whole */
uint64_t group_rel(const Engine *e, int pos, uint64_t legal, uint64_t rel);

#endif
