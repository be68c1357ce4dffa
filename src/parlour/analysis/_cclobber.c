/*
 * The compiled Clobber engine: the algorithm of parlour/analysis/engine.py, step for step.
 *
 * A sum of grid regions is searched by boolean negamax. A region is a bounding box of at most
 * 64 cells holding two bitboards: `a`, the stones of the player to move, and `b`, the other
 * player's. Every region is kept in normal form (least of its eight turned/mirrored copies)
 * together with the normal form of its negative (colours swapped), so that transposed,
 * relocated and mirrored regions meet in the tables, and `G + -G` cancels.
 *
 * Tables:
 *  - the transposition table keys a whole sum by two independent 64-bit multiset signatures
 *    (sums of per-region hashes, so the order of regions does not matter);
 *  - the region table keys one region exactly (box and both bitboards) and holds its outcome
 *    class; it is never evicted, and the Python side saves its small entries to disk.
 *
 * The search never stores a result computed after its time budget ran out: it unwinds with -1
 * and the caller raises a timeout instead of answering.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef uint64_t u64;

/* Population count. Without -mpopcnt (the default build, which must run on any x86-64)
   __builtin_popcountll is a call into libgcc; this inline form is a dozen instructions. */
static inline int popc(u64 x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* ---------------------------------------------------------------- region keys */
typedef struct {
    u64 a, b;
    uint8_t h, w;
} Key;

typedef struct {
    Key k, nk;          /* normal form seen by the mover, and of the negative */
    u64 h1, h2, nh1, nh2;
    int stones;
    int cls; /* outcome class when known from the region table, else -1 (not looked up) */
} Reg;

static inline int key_cmp(const Key *x, const Key *y) {
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    if (x->w != y->w) return x->w < y->w ? -1 : 1;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return 0;
}

static inline int key_eq(const Key *x, const Key *y) {
    return x->a == y->a && x->b == y->b && x->h == y->h && x->w == y->w;
}

static inline u64 mix64(u64 z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline u64 key_hash(const Key *k, u64 seed) {
    u64 z = mix64(k->a ^ seed);
    z = mix64(z ^ k->b ^ (seed << 1));
    return mix64(z ^ ((u64)k->h << 8 | k->w) ^ (seed >> 3));
}

#define SEED1 0x243f6a8885a308d3ULL
#define SEED2 0x13198a2e03707344ULL

/* ---------------------------------------------------------------- box geometry */
typedef struct {
    int ready;
    u64 full, not_first, not_last;
    uint8_t perm[8][64];
    uint8_t dims[8][2];
} Box;

static Box boxes[65][65];

static inline u64 shr(u64 x, int n) { return n >= 64 ? 0 : x >> n; }
static inline u64 shl(u64 x, int n) { return n >= 64 ? 0 : x << n; }

static Box *box(int h, int w) {
    Box *bx = &boxes[h][w];
    if (bx->ready) return bx;
    int n = h * w;
    bx->full = n >= 64 ? ~0ULL : ((1ULL << n) - 1);
    u64 first = 0;
    for (int r = 0; r < h; r++) first |= 1ULL << (r * w);
    bx->not_first = bx->full & ~first;
    bx->not_last = bx->full & ~shl(first, w - 1);
    for (int k = 0; k < 8; k++) {
        int nh = k < 4 ? h : w, nw = k < 4 ? w : h;
        bx->dims[k][0] = (uint8_t)nh;
        bx->dims[k][1] = (uint8_t)nw;
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++) {
                int rr, cc;
                switch (k) {
                case 0: rr = r; cc = c; break;
                case 1: rr = r; cc = w - 1 - c; break;
                case 2: rr = h - 1 - r; cc = c; break;
                case 3: rr = h - 1 - r; cc = w - 1 - c; break;
                case 4: rr = c; cc = r; break;
                case 5: rr = c; cc = h - 1 - r; break;
                case 6: rr = w - 1 - c; cc = r; break;
                default: rr = w - 1 - c; cc = h - 1 - r; break;
                }
                bx->perm[k][r * w + c] = (uint8_t)(rr * nw + cc);
            }
    }
    bx->ready = 1;
    return bx;
}

static inline u64 neighbours(u64 x, const Box *bx, int w) {
    return shr(x, w) | (shl(x, w) & bx->full) | ((x << 1) & bx->not_first) |
           ((x >> 1) & bx->not_last);
}

static inline u64 apply_perm(u64 x, const uint8_t *perm) {
    u64 out = 0;
    while (x) {
        int i = __builtin_ctzll(x);
        out |= 1ULL << perm[i];
        x &= x - 1;
    }
    return out;
}

/* ---- the 8x8 frame: regions whose box fits in 8x8 are turned with a few bit tricks.
   In a frame, cell (r, c) is bit 8r + c whatever the box width. */
#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL

static inline u64 to_frame(u64 x, int h, int w) {
    if (w == 8) return x;
    u64 f = 0, m = (1ULL << w) - 1;
    for (int r = 0; r < h; r++) f |= ((x >> (r * w)) & m) << (8 * r);
    return f;
}

static inline u64 from_frame(u64 f, int h, int w) {
    if (w == 8) return f;
    u64 x = 0, m = (1ULL << w) - 1;
    for (int r = 0; r < h; r++) x |= ((f >> (8 * r)) & m) << (r * w);
    return x;
}

static inline u64 flip_rows(u64 f, int h) { return __builtin_bswap64(f) >> (8 * (8 - h)); }

static inline u64 mirror_cols(u64 f, int w) {
    f = ((f >> 1) & 0x5555555555555555ULL) | ((f & 0x5555555555555555ULL) << 1);
    f = ((f >> 2) & 0x3333333333333333ULL) | ((f & 0x3333333333333333ULL) << 2);
    f = ((f >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((f & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return f >> (8 - w);
}

static inline u64 transpose8(u64 x) { /* (r, c) -> (c, r) */
    u64 t;
    t = 0x0f0f0f0f00000000ULL & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333000033330000ULL & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500550055005500ULL & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    return x;
}

static inline void keep_least(Key *best, int *have, int h, int w, u64 a, u64 b) {
    Key cand = {a, b, (uint8_t)h, (uint8_t)w};
    if (!*have || key_cmp(&cand, best) < 0) *best = cand;
    *have = 1;
}

/* Normal forms of a region and of its negative, from a tight region in an 8x8 frame. Only the
   symmetries giving the smallest height can win (keys compare the height first), so every
   candidate has the same box, and the least one is picked in frame coordinates: cell (r, c)
   is bit 8r + c there and bit wr + c in the box, both increasing with (r, c), so two
   bitboards compare alike in either layout. Only the two winners are packed into the box. */
static void normal_forms_frame(int h, int w, u64 fa, u64 fb, Key *k, Key *nk) {
    int th = h <= w ? h : w, tw = h <= w ? w : h;
    u64 ka = ~0ULL, kb = ~0ULL, na = ~0ULL, nb = ~0ULL;
    for (int turned = 0; turned < 2; turned++) {
        if (turned ? (h < w) : (h > w)) continue; /* that way round the box is too tall */
        u64 a0 = turned ? transpose8(fa) : fa, b0 = turned ? transpose8(fb) : fb;
        u64 a1 = mirror_cols(a0, tw), b1 = mirror_cols(b0, tw);
        u64 as[4] = {a0, a1, flip_rows(a0, th), flip_rows(a1, th)};
        u64 bs[4] = {b0, b1, flip_rows(b0, th), flip_rows(b1, th)};
        for (int i = 0; i < 4; i++) {
            if (as[i] < ka || (as[i] == ka && bs[i] < kb)) {
                ka = as[i];
                kb = bs[i];
            }
            if (bs[i] < na || (bs[i] == na && as[i] < nb)) {
                na = bs[i];
                nb = as[i];
            }
        }
    }
    *k = (Key){ka, kb, (uint8_t)th, (uint8_t)tw};
    *nk = (Key){na, nb, (uint8_t)th, (uint8_t)tw};
    if (tw < 8) { /* from_frame of the four bitboards in one pass over the rows */
        u64 m = (1ULL << tw) - 1, xa = 0, xb = 0, ya = 0, yb = 0;
        for (int r = 0; r < th; r++) {
            int from = 8 * r, to = r * tw;
            xa |= ((ka >> from) & m) << to;
            xb |= ((kb >> from) & m) << to;
            ya |= ((na >> from) & m) << to;
            yb |= ((nb >> from) & m) << to;
        }
        k->a = xa;
        k->b = xb;
        nk->a = ya;
        nk->b = yb;
    }
}

/* The same through permutation tables, for any box of at most 64 cells (the reference). */
static void normal_forms_slow(int h, int w, u64 a, u64 b, Key *k, Key *nk) {
    Box *bx = box(h, w);
    int least = h < w ? h : w, have = 0, nhave = 0;
    for (int t = 0; t < 8; t++) {
        if (bx->dims[t][0] != least) continue;
        u64 pa = apply_perm(a, bx->perm[t]), pb = apply_perm(b, bx->perm[t]);
        keep_least(k, &have, bx->dims[t][0], bx->dims[t][1], pa, pb);
        keep_least(nk, &nhave, bx->dims[t][0], bx->dims[t][1], pb, pa);
    }
}

/* Normal forms (least of the eight turned/mirrored copies) of a tight region and its negative. */
static void normal_forms(int h, int w, u64 a, u64 b, Key *k, Key *nk) {
    if (h <= 8 && w <= 8)
        normal_forms_frame(h, w, to_frame(a, h, w), to_frame(b, h, w), k, nk);
    else
        normal_forms_slow(h, w, a, b, k, nk);
}

/* Crop a group inside box (h, w) to its tight box; returns the new dims through hp/wp. */
static void crop(int h, int w, u64 a, u64 b, int *hp, int *wp, u64 *ap, u64 *bp) {
    u64 occ = a | b;
    u64 rowmask = w >= 64 ? ~0ULL : ((1ULL << w) - 1);
    int r0 = -1, r1 = -1;
    u64 cols = 0;
    for (int r = 0; r < h; r++) {
        u64 row = shr(occ, r * w) & rowmask;
        if (row) {
            if (r0 < 0) r0 = r;
            r1 = r;
            cols |= row;
        }
    }
    int c0 = __builtin_ctzll(cols), c1 = 63 - __builtin_clzll(cols);
    int nh = r1 - r0 + 1, nw = c1 - c0 + 1;
    *hp = nh;
    *wp = nw;
    if (nh == h && nw == w) {
        *ap = a;
        *bp = b;
        return;
    }
    u64 nmask = nw >= 64 ? ~0ULL : ((1ULL << nw) - 1);
    u64 na = 0, nb = 0;
    for (int i = 0; i < nh; i++) {
        int r = r0 + i;
        na |= ((shr(a, r * w + c0)) & nmask) << (i * nw);
        nb |= ((shr(b, r * w + c0)) & nmask) << (i * nw);
    }
    *ap = na;
    *bp = nb;
}

static void finish_reg(Reg *g, int stones) {
    g->h1 = key_hash(&g->k, SEED1);
    g->h2 = key_hash(&g->k, SEED2);
    g->nh1 = key_hash(&g->nk, SEED1);
    g->nh2 = key_hash(&g->nk, SEED2);
    g->stones = stones;
    g->cls = -1;
}

static void make_reg(Reg *g, int h, int w, u64 a, u64 b) {
    normal_forms(h, w, a, b, &g->k, &g->nk);
    finish_reg(g, popc(a | b));
}

static inline void neg_reg(Reg *dst, const Reg *src) {
    dst->k = src->nk;
    dst->nk = src->k;
    dst->h1 = src->nh1;
    dst->h2 = src->nh2;
    dst->nh1 = src->h1;
    dst->nh2 = src->h2;
    dst->stones = src->stones;
    /* bit 0: the mover wins moving first; bit 1: the other player does. Negating swaps them. */
    dst->cls = src->cls < 0 ? -1 : ((src->cls & 1) << 1) | (src->cls >> 1);
}

static inline int count_moves(u64 x, u64 y, const Box *bx, int w) {
    return popc(x & shl(y, w)) + popc(x & shr(y, w)) +
           popc(x & (y >> 1) & bx->not_last) +
           popc(x & (y << 1) & bx->not_first);
}

/* ---------------------------------------------------------------- tables */
/* A transposition-table entry is one 64-bit word: bits 8..63 check bits (the top 56 bits of
   the sum's second signature; the first signature picks the bucket), bits 2..7 log2 of the
   nodes the proof took, bit 1 valid, bit 0 result. A bucket is 8 entries, one cache line. */
typedef u64 TTEntry;
#define TT_WAYS 8

typedef struct {
    u64 a, b;
    uint16_t hw;
    uint8_t value; /* bit 7 valid, bits 0-1 outcome */
} DBEntry;

typedef struct {
    PyObject_HEAD
    int cannibal;
    int db_max;
    int tt_bits;
    TTEntry *tt;
    u64 tt_mask; /* number of buckets - 1 */
    size_t tt_bytes; /* the table's mapping, this many bytes */
    int tt_shared;   /* the mapping is a file's, shared between processes (shared_table) */
    DBEntry *db;
    u64 db_cap, db_count, db_limit;
    long long nodes;
    long long tt_hits, db_hits;
    long long cut_first, cut_later, tried_later, all_nodes, all_children; /* ordering figures */
    /* per-search state */
    long long node_limit; /* abort (aborted = 3) when nodes reach it */
    int order_mode;       /* move ordering: 0 mobility, 1.. with the history of patterns */
    int order_weight;     /* weight of mobility against the pattern history (0..1024) */
    int strip_width;      /* positions whose widest region is this wide, and whose regions */
    int strip_cells;      /* have boxes of at most this many cells, order with: */
    int strip_mode, strip_weight;
    int mode, weight;     /* the ordering of the running search (by the position's shape) */
    uint32_t *hist_good, *hist_tried; /* per move pattern: refutations found, moves tried */
    uint32_t *own_good, *own_tried;   /* this engine's own history (else the shared one's) */
    double deadline, started, next_report;
    PyObject *progress;
    int aborted; /* 1: time out, 2: Python exception set, 3: node limit */
    int slow_path; /* tests: use the permutation tables everywhere (the reference) */
    char *arena;   /* scratch memory of the search, a stack */
    size_t arena_top, arena_cap;
} Engine;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline TTEntry *tt_bucket(Engine *E, u64 h) { return E->tt + (h & E->tt_mask) * TT_WAYS; }

/* Entries are read and written whole, one 64-bit word at a time, so that several processes can
   share one table (shared_table): a word is never torn, and its 56 check bits say whether it
   belongs to the sum looked up. Two writers racing for a bucket can only lose an entry, never
   corrupt one; a lost entry is a proof to find again, as after any eviction. */
static inline u64 tt_load(const TTEntry *e) { return __atomic_load_n(e, __ATOMIC_RELAXED); }
static inline void tt_write(TTEntry *e, u64 v) { __atomic_store_n(e, v, __ATOMIC_RELAXED); }

static int tt_probe(Engine *E, u64 h, u64 g) {
    TTEntry *bucket = tt_bucket(E, h);
    u64 sig = (g & ~0xffULL) | 2;
    for (int i = 0; i < TT_WAYS; i++) {
        u64 e = tt_load(&bucket[i]);
        if ((e & ~0xfcULL & ~1ULL) == sig) return (int)(e & 1);
    }
    return -1;
}

static inline int log2_work(long long work) {
    return work > 1 ? 63 - __builtin_clzll((u64)work) : 0;
}

/* Keep the entry unless the bucket is full of entries that took more work (a proof that took
   many nodes is worth more than many that took few). */
static void tt_put(TTEntry *bucket, u64 sig, int lw, int result) {
    u64 val = sig | ((u64)lw << 2) | 2 | (u64)(result & 1);
    int victim = 0, least = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        u64 e = tt_load(&bucket[i]);
        if ((e & 2) && (e & ~0xffULL) == sig) {
            if ((int)((e >> 2) & 63) > lw) val = (val & ~0xfcULL) | (e & 0xfcULL);
            tt_write(&bucket[i], val);
            return;
        }
        int w = (e & 2) ? (int)((e >> 2) & 63) : -1;
        if (i < TT_WAYS - 1 && w < least) {
            least = w;
            victim = i;
        }
    }
    /* ways 0..6 keep the costliest proofs; the last way always takes the newest entry */
    if (least > lw) victim = TT_WAYS - 1;
    tt_write(&bucket[victim], val);
}

static void tt_store(Engine *E, u64 h, u64 g, int result, long long work) {
    tt_put(tt_bucket(E, h), g & ~0xffULL, log2_work(work), result);
}

/* The big tables (transposition and region tables) live in anonymous mappings that the kernel
   is asked to back with 2 MB pages. A probe is a random access into gigabytes: with 4 kB pages
   nearly every one also misses the TLB and walks the page tables, which costs about as much as
   the cache miss itself. Zero-filled like calloc; released with big_free. */
static void *big_alloc(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= ((size_t)2 << 20)) madvise(p, bytes, MADV_HUGEPAGE); /* a hint: may be refused */
#endif
    return p;
}

static void big_free(void *p, size_t bytes) {
    if (p) munmap(p, bytes);
}

static void db_free(Engine *E) {
    big_free(E->db, (size_t)E->db_cap * sizeof(DBEntry));
    E->db = NULL;
}

/* Scratch memory of the search: a stack, released in reverse order. */
static void *arena_get(Engine *E, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (E->arena_top + size > E->arena_cap) return NULL;
    void *p = E->arena + E->arena_top;
    E->arena_top += size;
    return p;
}

static inline u64 db_slot(const Key *k, u64 cap) { return key_hash(k, 0x5bd1e995ULL) & (cap - 1); }

static int db_grow(Engine *E) {
    u64 cap = E->db_cap ? E->db_cap * 2 : (1ULL << 16);
    DBEntry *fresh = big_alloc((size_t)cap * sizeof(DBEntry));
    if (!fresh) return -1;
    for (u64 i = 0; i < E->db_cap; i++) {
        DBEntry *e = &E->db[i];
        if (!(e->value & 0x80)) continue;
        Key k = {e->a, e->b, (uint8_t)(e->hw >> 8), (uint8_t)(e->hw & 0xff)};
        u64 s = db_slot(&k, cap);
        while (fresh[s].value & 0x80) s = (s + 1) & (cap - 1);
        fresh[s] = *e;
    }
    db_free(E);
    E->db = fresh;
    E->db_cap = cap;
    return 0;
}

static int db_get(Engine *E, const Key *k) {
    if (!E->db_cap) return -1;
    u64 s = db_slot(k, E->db_cap);
    uint16_t hw = (uint16_t)(k->h << 8 | k->w);
    while (E->db[s].value & 0x80) {
        DBEntry *e = &E->db[s];
        if (e->a == k->a && e->b == k->b && e->hw == hw) return e->value & 3;
        s = (s + 1) & (E->db_cap - 1);
    }
    return -1;
}

/* Returns 0 when stored (or when the table is full: the entry is then simply not kept, so
   memory stays bounded on very long searches), -1 when out of memory. */
static int db_put(Engine *E, const Key *k, int value) {
    if (E->db_count >= E->db_limit) return 0;
    if ((E->db_count + 1) * 2 > E->db_cap && db_grow(E) < 0) return -1;
    u64 s = db_slot(k, E->db_cap);
    uint16_t hw = (uint16_t)(k->h << 8 | k->w);
    while (E->db[s].value & 0x80) {
        DBEntry *e = &E->db[s];
        if (e->a == k->a && e->b == k->b && e->hw == hw) {
            e->value = (uint8_t)(0x80 | value);
            return 0;
        }
        s = (s + 1) & (E->db_cap - 1);
    }
    E->db[s].a = k->a;
    E->db[s].b = k->b;
    E->db[s].hw = hw;
    E->db[s].value = (uint8_t)(0x80 | value);
    E->db_count++;
    return 0;
}

/* ---------------------------------------------------------------- search */
#define POSITIVE 1
#define NEGATIVE 2
#define FUZZY 3
#define ZERO 0

typedef struct {
    int region;   /* index of the region moved in */
    int ncomps;
    Reg comps[4]; /* live regions after the move, seen by the next mover */
    u64 h1, h2;   /* signature of the child sum */
    int score;    /* moves left to the opponent: fewer first */
    int pattern;  /* the move's neighbourhood (history heuristic), -1 when not known */
} Child;

static int win(Engine *E, const Reg *in, int n);

static int check_budget(Engine *E) {
    double t = now_seconds();
    if (E->deadline > 0 && t > E->deadline) {
        E->aborted = 1;
        return -1;
    }
    if ((E->nodes & 0x3ffff) == 0 && PyErr_CheckSignals() < 0) {
        E->aborted = 2;
        return -1;
    }
    if (E->progress && t >= E->next_report) {
        E->next_report = t + 0.25;
        PyObject *r = PyObject_CallFunction(E->progress, "Ld", E->nodes, t - E->started);
        if (!r) {
            E->aborted = 2;
            return -1;
        }
        Py_DECREF(r);
    }
    return 0;
}

/* The outcome class of one region (mover's view), from the table or by searching it. */
static int outcome(Engine *E, const Reg *g) {
    int v = db_get(E, &g->k);
    if (v >= 0) {
        E->db_hits++;
        return v;
    }
    int first = win(E, g, 1);
    if (first < 0) return -1;
    Reg ng;
    neg_reg(&ng, g);
    int second = win(E, &ng, 1);
    if (second < 0) return -1;
    v = first | (second << 1);
    if (db_put(E, &g->k, v) < 0) {
        PyErr_NoMemory();
        E->aborted = 2;
        return -1;
    }
    return v;
}


/* Ordering bonus from the region table (looked up, never computed here): a part already
   known to be lost for the opponent (or zero) makes the move more promising. */
static inline int known_bonus(Engine *E, Reg *g) {
    if (g->stones > E->db_max) return 0;
    g->cls = db_get(E, &g->k);
    switch (g->cls) {
    case NEGATIVE: return -4;
    case ZERO: return -2;
    case POSITIVE: return 4;
    default: return 0;
    }
}

static inline void start_child(Child *c, int idx, u64 rest1, u64 rest2) {
    c->region = idx;
    c->ncomps = 0;
    c->h1 = rest1;
    c->h2 = rest2;
    c->score = 0;
    c->pattern = -1;
}

/* The neighbourhood of a move from cell s to its neighbour t in a box h x w, turned so that the move
   points up: ten cells around it (the stone's three other neighbours, the target's three and
   the four diagonal cells beyond them), each empty, the mover's or the opponent's, as a number
   below 3^10. Moves with the same neighbourhood tend to be equally good in different positions,
   which the history heuristic exploits. */
#define PATTERNS 59049
/* The ordering of positions whose widest region is STRIP_WIDTH wide, in boxes of at most
   STRIP_CELLS cells: 3xn strips up to 3x9 (measured on every board of at most 30 squares:
   docs/analysis.md). */
#define STRIP_WIDTH 3
#define STRIP_CELLS 27
#define STRIP_MODE 1
#define STRIP_WEIGHT 128
static const int8_t PATTERN_CELLS[10][2] = {{2, 0}, {-1, 0}, {1, -1}, {1, 1}, {0, -1},
                                            {0, 1}, {2, -1}, {2, 1}, {-1, -1}, {-1, 1}};

static inline int move_pattern(u64 a, u64 b, int h, int w, int s, int t) {
    int sr = s / w, sc = s % w;
    int ur = t / w - sr, uc = t % w - sc; /* unit vector of the move */
    int vr = uc, vc = -ur;                     /* perpendicular to it */
    int p = 0;
    for (int k = 0; k < 10; k++) {
        int i = PATTERN_CELLS[k][0], j = PATTERN_CELLS[k][1];
        int r = sr + i * ur + j * vr, c = sc + i * uc + j * vc;
        int v = 0;
        if (r >= 0 && r < h && c >= 0 && c < w) {
            u64 bit = 1ULL << (w * r + c);
            v = (a & bit) ? 1 : (b & bit) ? 2 : 0;
        }
        p = p * 3 + v;
    }
    return p;
}

/* move_pattern in the 8x8 frame, from a table: for each direction of gen_children_frame
   (-8, +8, +1, -1) and source cell, the frame bit of each of the ten cells (64: off the
   frame, always empty). Gives the very same numbers as move_pattern(a, b, 8, 8, s, t). */
static uint8_t frame_pattern_bits[4][64][10];

static void init_frame_patterns(void) {
    static const int delta[4] = {-8, 8, 1, -1};
    for (int d = 0; d < 4; d++)
        for (int s = 0; s < 64; s++) {
            int t = s + delta[d], sr = s / 8, sc = s % 8;
            int ur = t / 8 - sr, uc = t % 8 - sc;
            if (t < 0 || t > 63 || (ur != 0 && uc != 0)) ur = uc = 0; /* never generated */
            int vr = uc, vc = -ur;
            for (int k = 0; k < 10; k++) {
                int i = PATTERN_CELLS[k][0], j = PATTERN_CELLS[k][1];
                int r = sr + i * ur + j * vr, c = sc + i * uc + j * vc;
                frame_pattern_bits[d][s][k] =
                    (uint8_t)(r >= 0 && r < 8 && c >= 0 && c < 8 ? 8 * r + c : 64);
            }
        }
}

static inline int frame_pattern(u64 a, u64 b, int d, int s) {
    const uint8_t *bits = frame_pattern_bits[d][s];
    int p = 0;
    for (int k = 0; k < 10; k++) {
        int bit = bits[k];
        int v = bit < 64 ? (int)((a >> bit) & 1) | (int)(((b >> bit) & 1) << 1) : 0;
        p = p * 3 + v;
    }
    return p;
}

static inline void add_comp(Child *c, const Reg *g) {
    c->h1 += g->h1;
    c->h2 += g->h2;
}

/* Children of moving in a region whose box fits 8x8: everything in frame coordinates. */
static int gen_children_frame(Engine *E, const Reg *r, int idx, u64 rest1, u64 rest2,
                              Child *kids, int nk) {
    const Key *k = &r->k;
    u64 a = to_frame(k->a, k->h, k->w), b = to_frame(k->b, k->h, k->w);
    u64 targets = E->cannibal ? (a | b) : b;
    u64 src[4] = {a & (targets << 8), a & (targets >> 8), a & ((targets >> 1) & ~FILE_H),
                  a & ((targets << 1) & ~FILE_A)};
    const int delta[4] = {-8, 8, 1, -1};
    for (int d = 0; d < 4; d++) {
        u64 s_bits = src[d];
        while (s_bits) {
            int s = __builtin_ctzll(s_bits);
            s_bits &= s_bits - 1;
            int t = s + delta[d];
            u64 na = (a & ~(1ULL << s)) | (1ULL << t);
            u64 nb = b & ~(1ULL << t);
            Child *c = &kids[nk++];
            start_child(c, idx, rest1, rest2);
            c->pattern = frame_pattern(a, b, d, s); /* cells outside the box are empty */
            u64 occ = na | nb;
            while (occ) {
                u64 grp = occ & (~occ + 1);
                for (;;) {
                    u64 grown = (grp | (grp << 8) | (grp >> 8) | ((grp << 1) & ~FILE_A) |
                                 ((grp >> 1) & ~FILE_H)) & occ;
                    if (grown == grp) break;
                    grp = grown;
                }
                occ &= ~grp;
                /* the next mover owns the b stones */
                u64 ga = nb & grp, gb = na & grp;
                int live = E->cannibal ? (popc(grp) >= 2) : (ga && gb);
                if (!live) continue;
                int r0 = __builtin_ctzll(grp) >> 3, r1 = (63 - __builtin_clzll(grp)) >> 3;
                u64 fold = grp | (grp >> 32);
                fold |= fold >> 16;
                fold |= fold >> 8;
                fold &= 0xff;
                int c0 = __builtin_ctzll(fold), c1 = 63 - __builtin_clzll(fold);
                int shift = 8 * r0 + c0;
                ga >>= shift;
                gb >>= shift;
                Reg *g = &c->comps[c->ncomps++];
                normal_forms_frame(r1 - r0 + 1, c1 - c0 + 1, ga, gb, &g->k, &g->nk);
                finish_reg(g, popc(grp));
                add_comp(c, g);
                /* move ordering: leave the opponent as few moves as possible. (In plain
                   Clobber both players always have equally many moves, one per o-x
                   adjacency, so a mobility *difference* would carry no information.) */
                u64 tg = E->cannibal ? (ga | gb) : gb;
                c->score += popc(ga & (tg << 8)) +
                            popc(ga & (tg >> 8)) +
                            popc(ga & (tg >> 1) & ~FILE_H) +
                            popc(ga & (tg << 1) & ~FILE_A);
            }
        }
    }
    return nk;
}

/* Children of moving in region r (any box of at most 64 cells); appended to kids. */
static int gen_children(Engine *E, const Reg *r, int idx, u64 rest1, u64 rest2, Child *kids,
                        int nk) {
    const Key *k = &r->k;
    int h = k->h, w = k->w;
    if (h <= 8 && w <= 8 && !E->slow_path) return gen_children_frame(E, r, idx, rest1, rest2, kids, nk);
    const Box *bx = box(h, w);
    u64 a = k->a, b = k->b;
    u64 targets = E->cannibal ? (a | b) : b;
    u64 src[4] = {a & shl(targets, w), a & (shr(targets, w) & bx->full),
                  a & (targets >> 1) & bx->not_last, a & (targets << 1) & bx->not_first};
    const int delta[4] = {-w, w, 1, -1};
    for (int d = 0; d < 4; d++) {
        u64 s_bits = src[d];
        while (s_bits) {
            int s = __builtin_ctzll(s_bits);
            s_bits &= s_bits - 1;
            int t = s + delta[d];
            u64 na = (a & ~(1ULL << s)) | (1ULL << t);
            u64 nb = b & ~(1ULL << t);
            Child *c = &kids[nk++];
            start_child(c, idx, rest1, rest2);
            c->pattern = move_pattern(a, b, h, w, s, t);
            u64 occ = na | nb;
            while (occ) {
                u64 grp = occ & (~occ + 1);
                for (;;) {
                    u64 grown = (grp | neighbours(grp, bx, w)) & occ;
                    if (grown == grp) break;
                    grp = grown;
                }
                occ &= ~grp;
                u64 ga = na & grp, gb = nb & grp;
                int live = E->cannibal ? (popc(grp) >= 2) : (ga && gb);
                if (!live) continue;
                int ch, cw;
                u64 ca, cb;
                crop(h, w, gb, ga, &ch, &cw, &ca, &cb); /* the next mover owns the b stones */
                Reg *g = &c->comps[c->ncomps++];
                if (E->slow_path)
                    normal_forms_slow(ch, cw, ca, cb, &g->k, &g->nk);
                else
                    normal_forms(ch, cw, ca, cb, &g->k, &g->nk);
                finish_reg(g, popc(grp));
                add_comp(c, g);
                c->score += count_moves(ca, E->cannibal ? (ca | cb) : cb, box(ch, cw), cw);
            }
        }
    }
    return nk;
}

static int count_region_moves(const Engine *E, const Reg *r) {
    const Key *k = &r->k;
    const Box *bx = box(k->h, k->w);
    u64 targets = E->cannibal ? (k->a | k->b) : k->b;
    return count_moves(k->a, targets, bx, k->w);
}

/* Boolean negamax: 1 when the player to move in the sum `in` wins, 0 when they lose, -1 when
   the search stopped (E->aborted says why: time, a Python exception, or the node limit). */
static int win(Engine *E, const Reg *in, int n) {
    E->nodes++;
    if (E->nodes >= E->node_limit) {
        E->aborted = 3;
        return -1;
    }
    if ((E->nodes & 0xfff) == 0 && check_budget(E) < 0) return -1;
    if (n == 0) return 0;
    long long start_nodes = E->nodes;
    size_t mark = E->arena_top;
    int result = -1;
    int n_in = n;
    u64 raw1 = 0, raw2 = 0;
    for (int i = 0; i < n; i++) {
        raw1 += in[i].h1;
        raw2 += in[i].h2;
    }
    Reg *r = arena_get(E, sizeof(Reg) * (size_t)n);
    if (!r) goto nomem;
    memcpy(r, in, sizeof(Reg) * (size_t)n);

    /* G + -G = 0 */
    if (n >= 2) {
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (key_eq(&r[i].k, &r[j].nk)) {
                    r[j] = r[--n]; /* j > i: drop j first, then i */
                    r[i] = r[--n];
                    i--;
                    break;
                }
            }
        }
        if (n == 0) {
            result = 0;
            goto done;
        }
    }

    /* a lone region already in the region table is answered from there */
    if (n == 1 && r[0].stones <= E->db_max) {
        int v = r[0].cls >= 0 ? r[0].cls : db_get(E, &r[0].k);
        if (v >= 0) {
            E->db_hits++;
            result = v & 1;
            goto done;
        }
    }

    /* outcome classes of small regions: drop zeros, decide the sum if we can */
    if (n >= 2) {
        int positive = 0, negative = 0, fuzzy = 0, unknown = 0;
        for (int i = 0; i < n; i++) {
            if (r[i].stones > E->db_max) {
                unknown++;
                continue;
            }
            int v = r[i].cls >= 0 ? r[i].cls : outcome(E, &r[i]);
            if (v < 0) goto done;
            r[i].cls = v;
            if (v == ZERO) {
                r[i] = r[n - 1];
                n--;
                i--;
                continue;
            }
            if (v == POSITIVE) positive++;
            else if (v == NEGATIVE) negative++;
            else fuzzy++;
        }
        if (n == 0) {
            result = 0;
            goto done;
        }
        if (!unknown) {
            if (!negative && fuzzy <= 1) {
                result = 1;
                goto done;
            }
            if (!positive && !fuzzy) {
                result = 0;
                goto done;
            }
        }
    }

    u64 s1 = 0, s2 = 0, n1 = 0, n2 = 0;
    for (int i = 0; i < n; i++) {
        s1 += r[i].h1;
        s2 += r[i].h2;
        n1 += r[i].nh1;
        n2 += r[i].nh2;
    }
    int known = tt_probe(E, s1, s2);
    if (known >= 0) {
        E->tt_hits++;
        result = known;
        goto done;
    }

    int total = 0;
    for (int i = 0; i < n; i++) total += count_region_moves(E, &r[i]);
    Child *kids = arena_get(E, sizeof(Child) * (size_t)(total + 1));
    int *order = arena_get(E, sizeof(int) * (size_t)(total + 1));
    Reg *child = arena_get(E, sizeof(Reg) * (size_t)(n + 4));
    if (!kids || !order || !child) goto nomem;
    int nk = 0;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)
            if (key_eq(&r[i].k, &r[j].k)) {
                dup = 1;
                break;
            }
        if (dup) continue;
        int first = nk;
        nk = gen_children(E, &r[i], i, n1 - r[i].nh1, n2 - r[i].nh2, kids, nk);
        /* Each child's bucket is almost always a cache miss: ask for all of them first, so
           that the misses overlap instead of coming one after another in the loop below. */
        for (int c = first; c < nk; c++) __builtin_prefetch(tt_bucket(E, kids[c].h1));
        for (int c = first; c < nk; c++) {
            if (tt_probe(E, kids[c].h1, kids[c].h2) == 0) {
                E->tt_hits++;
                result = 1; /* a child already known lost for the opponent */
                tt_store(E, s1, s2, 1, 1);
                goto done;
            }
        }
    }
    /* The ordering bonus of the parts already in the region table, looked up only now that
       no child is known lost (a cut-off above needs none of them), and fetched together for
       the same reason as the buckets above. */
    for (int c = 0; c < nk; c++)
        for (int t = 0; t < kids[c].ncomps; t++)
            if (kids[c].comps[t].stones <= E->db_max && E->db_cap)
                __builtin_prefetch(&E->db[db_slot(&kids[c].comps[t].k, E->db_cap)]);
    for (int c = 0; c < nk; c++)
        for (int t = 0; t < kids[c].ncomps; t++) kids[c].score += known_bonus(E, &kids[c].comps[t]);
    /* Move ordering (a stable insertion sort of indices): fewest moves left to the opponent
       first, and among moves within a few such moves of each other, the one whose pattern
       (move_pattern) refuted most often so far. */
    if (E->mode) {
        for (int c = 0; c < nk; c++) {
            int p = kids[c].pattern;
            int h = p < 0 ? 512
                          : (int)(((u64)E->hist_good[p] + 1) * 1024 / ((u64)E->hist_tried[p] + 2));
            kids[c].score = kids[c].score * E->weight - h;
        }
    }
    for (int c = 0; c < nk; c++) {
        int j = c;
        while (j > 0 && kids[order[j - 1]].score > kids[c].score) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = c;
    }

    result = 0;
    for (int q = 0; q < nk && result == 0; q++) {
        const Child *kid = &kids[order[q]];
        int m = 0;
        for (int j = 0; j < n; j++)
            if (j != kid->region) neg_reg(&child[m++], &r[j]);
        for (int t = 0; t < kid->ncomps; t++) child[m++] = kid->comps[t];
        long long before = E->nodes;
        int sub = win(E, child, m);
        if (sub < 0) {
            result = -1;
            goto done;
        }
        if (E->mode && kid->pattern >= 0) {
            uint32_t lw = (uint32_t)log2_work(E->nodes - before) + 1;
            uint32_t weight = E->mode == 1 ? 1 : E->mode == 2 ? lw : lw * lw;
            E->hist_tried[kid->pattern] += weight;
            if (sub == 0) E->hist_good[kid->pattern] += weight;
            if (E->hist_tried[kid->pattern] >= (1U << 30)) {
                for (int p = 0; p < PATTERNS; p++) {
                    E->hist_tried[p] >>= 1;
                    E->hist_good[p] >>= 1;
                }
            }
        }
        if (sub == 0) {
            result = 1;
            if (q == 0) E->cut_first++;
            else {
                E->cut_later++;
                E->tried_later += q + 1;
            }
        }
    }
    if (result == 0) {
        E->all_nodes++;
        E->all_children += nk;
    }
    tt_store(E, s1, s2, result, E->nodes - start_nodes);
    goto done;

nomem:
    PyErr_NoMemory();
    E->aborted = 2;
    result = -1;
done:
    /* also file the result under the unsimplified sum, for parents' transposition cut-offs */
    if (result >= 0 && n_in >= 2) tt_store(E, raw1, raw2, result, E->nodes - start_nodes);
    E->arena_top = mark;
    return result;
}

/* ---------------------------------------------------------------- Python type */
static void tt_release(Engine *E) {
    big_free(E->tt, E->tt_bytes);
    E->tt = NULL;
    E->tt_bytes = 0;
    E->tt_shared = 0;
}

/* The table as a shared mapping of the file `path` (created, or sized, when needed): every
   engine that maps the same file, in any process of this machine, reads and writes one table. */
static int tt_map_shared(Engine *E, const char *path, size_t bytes) {
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    if (fd < 0) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || ((size_t)st.st_size != bytes && ftruncate(fd, (off_t)bytes) < 0)) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
        return -1;
    }
    E->tt = p;
    E->tt_bytes = bytes;
    E->tt_shared = 1;
    return 0;
}

static void Engine_dealloc(Engine *E) {
    tt_release(E);
    free(E->own_good);
    free(E->own_tried);
    free(E->arena);
    db_free(E);
    Py_XDECREF(E->progress);
    Py_TYPE(E)->tp_free((PyObject *)E);
}

static int Engine_init(Engine *E, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"cannibal", "tt_bits", "db_max_stones", "slow_path", "db_limit",
                             "order_mode", "order_weight", "strip_width", "strip_mode",
                             "strip_weight", "strip_cells", "shared_table", NULL};
    const char *shared = NULL;
    int cannibal = 0, tt_bits = 22, db_max = 14, slow_path = 0;
    int order_mode = 2, order_weight = 64;
    int strip_width = STRIP_WIDTH, strip_mode = STRIP_MODE, strip_weight = STRIP_WEIGHT;
    int strip_cells = STRIP_CELLS;
    unsigned long long db_limit = 0; /* 0: 2^23 entries, 2^(tt_bits - 4) for big tables, <= 2^25 */
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|piipKiiiiiiz", kwlist, &cannibal, &tt_bits,
                                     &db_max, &slow_path, &db_limit, &order_mode, &order_weight,
                                     &strip_width, &strip_mode, &strip_weight, &strip_cells,
                                     &shared))
        return -1;
    if (order_weight < 1 || strip_weight < 1) {
        PyErr_SetString(PyExc_ValueError, "order weights must be at least 1");
        return -1;
    }
    E->order_mode = E->mode = order_mode;
    E->order_weight = E->weight = order_weight;
    E->strip_width = strip_width;
    E->strip_cells = strip_cells;
    E->strip_mode = strip_mode;
    E->strip_weight = strip_weight;
    if (!E->own_good) {
        E->own_good = calloc(PATTERNS, sizeof(uint32_t));
        E->own_tried = calloc(PATTERNS, sizeof(uint32_t));
        if (!E->own_good || !E->own_tried) {
            PyErr_NoMemory();
            return -1;
        }
    }
    E->hist_good = E->own_good;
    E->hist_tried = E->own_tried;
    if (!db_limit) db_limit = 1ULL << (tt_bits > 29 ? 25 : tt_bits > 27 ? tt_bits - 4 : 23);
    E->db_limit = db_limit;
    E->slow_path = slow_path;
    if (tt_bits < 10 || tt_bits > 32) {
        PyErr_SetString(PyExc_ValueError, "tt_bits must be between 10 and 32");
        return -1;
    }
    E->cannibal = cannibal;
    E->db_max = db_max;
    tt_release(E);
    u64 buckets = 1ULL << (tt_bits - 3);
    if (shared) {
        /* the table, then the pattern history: what one worker learns orders the others' */
        size_t table = (size_t)(buckets * TT_WAYS * sizeof(TTEntry));
        if (tt_map_shared(E, shared, table + 2 * PATTERNS * sizeof(uint32_t)) < 0) return -1;
        E->hist_good = (uint32_t *)((char *)E->tt + table);
        E->hist_tried = E->hist_good + PATTERNS;
    } else {
        E->tt_bytes = (size_t)(buckets * TT_WAYS * sizeof(TTEntry));
        E->tt = big_alloc(E->tt_bytes);
        if (!E->tt) {
            E->tt_bytes = 0;
            PyErr_NoMemory();
            return -1;
        }
    }
    E->tt_mask = buckets - 1;
    E->tt_bits = tt_bits;
    E->node_limit = LLONG_MAX;
    if (!E->arena) {
        E->arena_cap = (size_t)1 << 24; /* 64 plies of up to 112 children fit many times over */
        E->arena = malloc(E->arena_cap);
        if (!E->arena) {
            PyErr_NoMemory();
            return -1;
        }
    }
    E->arena_top = 0;
    return 0;
}

static int parse_regions(Engine *E, PyObject *seq, Reg **out, int *n) {
    PyObject *fast = PySequence_Fast(seq, "regions must be a sequence of (h, w, a, b)");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    Reg *regs = malloc(sizeof(Reg) * (size_t)(len + 1));
    if (!regs) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        int h, w;
        unsigned long long a, b;
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyArg_ParseTuple(item, "iiKK", &h, &w, &a, &b)) goto fail;
        if (h < 1 || w < 1 || h * w > 64) {
            PyErr_SetString(PyExc_ValueError, "a region's box must hold at most 64 cells");
            goto fail;
        }
        u64 full = box(h, w)->full;
        if ((a & b) || ((a | b) & ~full) || !(a | b)) {
            PyErr_SetString(PyExc_ValueError, "bad region bitboards");
            goto fail;
        }
        int ch, cw;
        u64 ca, cb;
        crop(h, w, a, b, &ch, &cw, &ca, &cb);
        if (E->slow_path) {
            normal_forms_slow(ch, cw, ca, cb, &regs[i].k, &regs[i].nk);
            finish_reg(&regs[i], popc(ca | cb));
        } else {
            make_reg(&regs[i], ch, cw, ca, cb);
        }
    }
    Py_DECREF(fast);
    *out = regs;
    *n = (int)len;
    return 0;
fail:
    Py_DECREF(fast);
    free(regs);
    return -1;
}

static PyObject *Engine_win(Engine *E, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"regions", "time_limit", "progress", "node_limit", NULL};
    PyObject *seq, *progress = Py_None;
    double limit = 0;
    long long node_limit = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|dOL", kwlist, &seq, &limit, &progress,
                                     &node_limit))
        return NULL;
    Reg *regs;
    int n;
    if (parse_regions(E, seq, &regs, &n) < 0) return NULL;
    E->started = now_seconds();
    E->deadline = limit > 0 ? E->started + limit : 0;
    E->next_report = E->started + 0.25;
    Py_XDECREF(E->progress);
    E->progress = progress == Py_None ? NULL : progress;
    Py_XINCREF(E->progress);
    E->aborted = 0;
    E->arena_top = 0;
    E->node_limit = node_limit > 0 ? E->nodes + node_limit : LLONG_MAX;
    /* The ordering adapts to the position's shape. The pattern history, weighted by proof
       size, pays on boards two wide and four or more wide (2xn, 5x5, 4x7, 5x6) and on 3x10,
       but misleads on the shorter three-wide strips (3x9: 9.3 million nodes, 5.0 with
       mobility counting twice as much and unit history weights), which order that way. */
    int width = 0, cells = 0;
    for (int i = 0; i < n; i++) {
        if (regs[i].k.h > width) width = regs[i].k.h; /* normal forms: h is the smaller side */
        if (regs[i].k.h * regs[i].k.w > cells) cells = regs[i].k.h * regs[i].k.w;
    }
    int strip = width == E->strip_width && cells <= E->strip_cells;
    E->mode = strip ? E->strip_mode : E->order_mode;
    E->weight = strip ? E->strip_weight : E->order_weight;
    int res = win(E, regs, n);
    free(regs);
    Py_CLEAR(E->progress);
    E->node_limit = LLONG_MAX;
    if (res < 0) {
        if (E->aborted == 2) return NULL;
        return PyLong_FromLong(E->aborted == 3 ? -2 : -1);
    }
    return PyLong_FromLong(res);
}

/* Entries of the region table with at most max_stones stones, packed "<BBQQB" each. */
static PyObject *Engine_export(Engine *E, PyObject *args) {
    int max_stones = 64;
    if (!PyArg_ParseTuple(args, "|i", &max_stones)) return NULL;
    u64 count = 0;
    for (u64 i = 0; i < E->db_cap; i++)
        if ((E->db[i].value & 0x80) &&
            popc(E->db[i].a | E->db[i].b) <= max_stones)
            count++;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 19));
    if (!out) return NULL;
    unsigned char *p = (unsigned char *)PyBytes_AS_STRING(out);
    for (u64 i = 0; i < E->db_cap; i++) {
        DBEntry *e = &E->db[i];
        if (!(e->value & 0x80) || popc(e->a | e->b) > max_stones) continue;
        p[0] = (unsigned char)(e->hw >> 8);
        p[1] = (unsigned char)(e->hw & 0xff);
        for (int j = 0; j < 8; j++) p[2 + j] = (unsigned char)(e->a >> (8 * j));
        for (int j = 0; j < 8; j++) p[10 + j] = (unsigned char)(e->b >> (8 * j));
        p[18] = e->value & 3;
        p += 19;
    }
    return out;
}

static PyObject *Engine_import(Engine *E, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len % 19) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "region table data must be 19-byte records");
        return NULL;
    }
    const unsigned char *p = buf.buf;
    Py_ssize_t count = buf.len / 19;
    for (Py_ssize_t i = 0; i < count; i++, p += 19) {
        Key k;
        k.h = p[0];
        k.w = p[1];
        k.a = k.b = 0;
        for (int j = 0; j < 8; j++) k.a |= (u64)p[2 + j] << (8 * j);
        for (int j = 0; j < 8; j++) k.b |= (u64)p[10 + j] << (8 * j);
        if (k.h < 1 || k.w < 1 || k.h * k.w > 64 || p[18] > 3) continue;
        if (db_put(E, &k, p[18]) < 0) {
            PyBuffer_Release(&buf);
            return PyErr_NoMemory();
        }
    }
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

/* Transposition-table entries worth keeping across runs (checkpoints): records "<QQ" of
   (bucket index, entry), for entries whose proof took at least 2^min_log_work nodes. The
   bucket index only means something to a table of the same size (tt_bits). */
static PyObject *Engine_export_tt(Engine *E, PyObject *args) {
    int min_lw = 0;
    if (!PyArg_ParseTuple(args, "|i", &min_lw)) return NULL;
    u64 total = (E->tt_mask + 1) * TT_WAYS, count = 0;
    for (u64 i = 0; i < total; i++)
        if ((E->tt[i] & 2) && (int)((E->tt[i] >> 2) & 63) >= min_lw) count++;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 16));
    if (!out) return NULL;
    u64 *p = (u64 *)PyBytes_AS_STRING(out);
    for (u64 i = 0; i < total; i++)
        if ((E->tt[i] & 2) && (int)((E->tt[i] >> 2) & 63) >= min_lw) {
            *p++ = i / TT_WAYS;
            *p++ = E->tt[i];
        }
    return out;
}

static PyObject *Engine_import_tt(Engine *E, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len % 16) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "proof data must be 16-byte records");
        return NULL;
    }
    const unsigned char *p = buf.buf;
    for (Py_ssize_t i = 0; i < buf.len / 16; i++, p += 16) {
        u64 index, entry;
        memcpy(&index, p, 8);
        memcpy(&entry, p + 8, 8);
        if (index > E->tt_mask || !(entry & 2)) continue;
        tt_put(E->tt + index * TT_WAYS, entry & ~0xffULL, (int)((entry >> 2) & 63),
               (int)(entry & 1));
    }
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

static PyObject *Engine_clear(Engine *E, PyObject *Py_UNUSED(ignored)) {
    memset(E->tt, 0, sizeof(TTEntry) * (size_t)((E->tt_mask + 1) * TT_WAYS));
    db_free(E);
    E->db_cap = E->db_count = 0;
    Py_RETURN_NONE;
}

static PyObject *Engine_get_nodes(Engine *E, void *closure) { return PyLong_FromLongLong(E->nodes); }
static PyObject *Engine_get_tt_bits(Engine *E, void *closure) {
    return PyLong_FromLong(E->tt_bits);
}
static PyObject *Engine_get_shared(Engine *E, void *closure) {
    return PyBool_FromLong(E->tt_shared);
}
static PyObject *Engine_get_db_size(Engine *E, void *closure) {
    return PyLong_FromUnsignedLongLong(E->db_count);
}
static PyObject *Engine_get_stats(Engine *E, void *closure) {
    return Py_BuildValue("{sLsLsLsKsLsLsLsLsL}", "nodes", E->nodes, "tt_hits", E->tt_hits,
                         "db_hits", E->db_hits, "db_size", (unsigned long long)E->db_count,
                         "cut_first", E->cut_first, "cut_later", E->cut_later, "tried_later",
                         E->tried_later, "all_nodes", E->all_nodes, "all_children",
                         E->all_children);
}

static PyMethodDef Engine_methods[] = {
    {"win", (PyCFunction)(void (*)(void))Engine_win, METH_VARARGS | METH_KEYWORDS,
     "win(regions, time_limit=0, progress=None, node_limit=0)"
     " -> 1 (mover wins), 0 (mover loses), -1 (out of time), -2 (node limit reached)"},
    {"export_proofs", (PyCFunction)Engine_export_tt, METH_VARARGS,
     "Packed transposition-table entries whose proofs took at least 2^min_log_work nodes."},
    {"import_proofs", (PyCFunction)Engine_import_tt, METH_VARARGS,
     "Load packed transposition-table entries (from export_proofs of a table as large)."},
    {"export_table", (PyCFunction)Engine_export, METH_VARARGS,
     "Packed region-table entries with at most max_stones stones."},
    {"import_table", (PyCFunction)Engine_import, METH_VARARGS, "Load packed region-table entries."},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "Forget every table entry."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"nodes", (getter)Engine_get_nodes, NULL, "nodes searched so far", NULL},
    {"db_size", (getter)Engine_get_db_size, NULL, "entries in the region table", NULL},
    {"shared", (getter)Engine_get_shared, NULL, "the table is a shared mapping (shared_table)",
     NULL},
    {"tt_bits", (getter)Engine_get_tt_bits, NULL, "the transposition table holds 2^tt_bits entries", NULL},
    {"stats", (getter)Engine_get_stats, NULL, "search counters", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parlour.analysis._cclobber.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Boolean negamax over sums of normalised Clobber grid regions.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cclobber", "Compiled Clobber search engine.", -1, NULL,
};

PyMODINIT_FUNC PyInit__cclobber(void) {
    init_frame_patterns();
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "VERSION", 3);
    return m;
}
