/* Exact values of two-player Stomp the Plank against a uniformly random opponent.
 *
 * Built and run by bench/plank_ceiling.py (see there for what the figures mean).
 *
 * The state at the start of a turn is (both planks, whose turn, the draw pile's counts). The
 * seven treasures are interchangeable, so a pile is kept as its counts sorted (3432 piles).
 * The rules are those of parlour's stomp-the-plank game (rulings P1-P7): a draw is uniform over
 * the pile, a card already on the pontoon ends the turn with a step, the sixth spot wins at
 * once, a stop on spot k gives the crates of spot k, discards are reshuffled when the pile is
 * empty (mid-turn: everything not on the pontoon). The 60-crate supply never runs out with two
 * players (two planks hold at most 2 * (tip_at - 1) crates) and the project's turn limit is
 * not modelled: the figures are for games played to the end.
 *
 * Four policies for the "hero" seat are evaluated at once, the other seat always choosing
 * draw or stop with probability 1/2 (as parlour's random agent does):
 *   B  the best response: the hero maximises its chance of winning against random;
 *   W  the game's value under best play by both (the other seat minimises): not against random;
 *   M  the hero plays the minimax policy of W, its chance of winning against random;
 *   S  the hero stops as soon as K cards are on the pontoon, against random.
 * Every turn increases the total load of the two planks except a stop on spot 1 (0 crates),
 * so plank pairs are solved from the heaviest down; within a pair, piles are swept from the
 * smallest up (a stop on spot 1 leads to a pile one card smaller, or to a reshuffled full one)
 * until no value moves by more than 1e-13.
 *
 * Usage: plank_ceiling TIP_AT STEP_WEIGHT K C1 C2 C3 C4 C5
 * Prints, for the hero moving first and second: B W M S.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define T 7
#define COPIES 7
#define SPOTS 6
#define MAXP 4000

static int TIP, WEIGHT, STOPK, CRATES[SPOTS];

/* --- piles: sorted count vectors ------------------------------------------------------- */
static int npiles, pile_counts[MAXP][T], pile_size[MAXP], *pile_index, full_pile;

static int code_of(const int c[T]) {
    int s[T], i, j, code = 0;
    memcpy(s, c, sizeof s);
    for (i = 1; i < T; i++)
        for (j = i; j > 0 && s[j] > s[j - 1]; j--) { int x = s[j]; s[j] = s[j - 1]; s[j - 1] = x; }
    for (i = 0; i < T; i++) code = code * 8 + s[i];
    return code;
}
static int canon(const int c[T]) {  /* the pile at a turn's end: a reshuffle if it is empty */
    int tot = 0, i;
    for (i = 0; i < T; i++) tot += c[i];
    if (tot == 0) return full_pile;
    return pile_index[code_of(c)];
}
static void enum_piles(int pos, int max, int c[T]) {
    if (pos == T) {
        int tot = 0, i;
        for (i = 0; i < T; i++) tot += c[i];
        if (tot == 0) return;
        memcpy(pile_counts[npiles], c, sizeof(int) * T);
        pile_size[npiles] = tot;
        pile_index[code_of(c)] = npiles;
        npiles++;
        return;
    }
    for (int v = 0; v <= max; v++) { c[pos] = v; enum_piles(pos + 1, v, c); }
}

/* --- the tree of one turn, per starting pile --------------------------------------------- */
enum { MATCH, NODE, WIN6 };
typedef struct { double p; int kind, target; } Child;
typedef struct { int k, stop_pile, first, n; } Node;
static Node *nodes; static Child *childs;
static int nnodes, nchilds, cap_nodes, cap_childs;
static int tree_first[MAXP], tree_n[MAXP];

static int build(const int pile[T], int mask, int k) {
    int me = nnodes++, t, u, e[T], tot = 0;
    if (nnodes > cap_nodes) { cap_nodes *= 2; nodes = realloc(nodes, sizeof(Node) * cap_nodes); }
    nodes[me].k = k;
    nodes[me].stop_pile = k ? canon(pile) : -1;
    memcpy(e, pile, sizeof e);
    for (t = 0; t < T; t++) tot += e[t];
    if (tot == 0) {  /* P7 mid-turn: every card not on the pontoon is shuffled into the pile */
        for (t = 0; t < T; t++) { e[t] = COPIES - ((mask >> t) & 1); tot += e[t]; }
    }
    Child local[T]; int nl = 0;
    for (t = 0; t < T; t++) {
        int flag = (mask >> t) & 1, seen = 0, group = 0;
        if (!e[t]) continue;
        for (u = 0; u < t; u++) if (e[u] == e[t] && ((mask >> u) & 1) == flag) seen = 1;
        if (seen) continue;
        for (u = t; u < T; u++) if (e[u] == e[t] && ((mask >> u) & 1) == flag) group++;
        int after[T]; memcpy(after, e, sizeof after); after[t]--;
        local[nl].p = (double)group * e[t] / tot;
        if (flag) { local[nl].kind = MATCH; local[nl].target = canon(after); }
        else if (k + 1 == SPOTS) { local[nl].kind = WIN6; local[nl].target = -1; }
        else { local[nl].kind = NODE; local[nl].target = build(after, mask | (1 << t), k + 1); }
        nl++;
    }
    if (nchilds + nl > cap_childs) { cap_childs *= 2; childs = realloc(childs, sizeof(Child) * cap_childs); }
    nodes[me].first = nchilds; nodes[me].n = nl;
    memcpy(childs + nchilds, local, sizeof(Child) * nl);
    nchilds += nl;
    return me;
}

/* --- planks ------------------------------------------------------------------------------ */
static int nplanks, plank_c[200], plank_s[200], plank_at[100][10];
static int tips(int c, int s) { return c + WEIGHT * s >= TIP; }
static int step_of(int i) {  /* -1: the step tips the plank */
    int c = plank_c[i], s = plank_s[i] + 1;
    return tips(c, s) ? -1 : plank_at[c][s];
}
static int crates_of(int i, int k) {
    int c = plank_c[i] + CRATES[k], s = plank_s[i];
    return tips(c, s) ? -1 : plank_at[c][s];
}

/* values[policy][pair][active][pile]; active 0 = hero, 1 = random */
#define NPOL 4
static double *V[NPOL];
static size_t at(int h, int r, int a, int p) { return (((size_t)h * nplanks + r) * 2 + a) * npiles + p; }

static double *scratch[NPOL];

/* One turn starting with pile p, planks (h, r), active a: values of the four policies. */
static void eval_turn(int p, int h, int r, int a, double out[NPOL]) {
    int first = tree_first[p], n = tree_n[p];
    double win = a == 0 ? 1.0 : 0.0, lose = 1.0 - win;
    /* successors of the active's step and of a stop, per k */
    int step = step_of(a == 0 ? h : r);
    size_t step_at = 0;
    if (step >= 0) step_at = a == 0 ? at(step, r, 1, 0) : at(h, step, 0, 0);
    for (int i = first + n - 1; i >= first; i--) {
        Node *nd = &nodes[i];
        double d[NPOL] = {0, 0, 0, 0};
        for (int j = 0; j < nd->n; j++) {
            Child *c = &childs[nd->first + j];
            for (int q = 0; q < NPOL; q++) {
                double v;
                if (c->kind == WIN6) v = win;
                else if (c->kind == NODE) v = scratch[q][c->target - first];
                else v = step < 0 ? lose : V[q][step_at + c->target];
                d[q] += c->p * v;
            }
        }
        double *res[NPOL];
        for (int q = 0; q < NPOL; q++) res[q] = &scratch[q][i - first];
        if (nd->k == 0) { for (int q = 0; q < NPOL; q++) *res[q] = d[q]; continue; }
        int other = crates_of(a == 0 ? r : h, nd->k);
        double s[NPOL];
        for (int q = 0; q < NPOL; q++) {
            if (other < 0) s[q] = win;
            else s[q] = V[q][a == 0 ? at(h, other, 1, nd->stop_pile) : at(other, r, 0, nd->stop_pile)];
        }
        if (a == 1) {  /* the random seat; W's opponent minimises */
            *res[0] = 0.5 * (s[0] + d[0]);
            *res[1] = s[1] < d[1] ? s[1] : d[1];
            *res[2] = 0.5 * (s[2] + d[2]);
            *res[3] = 0.5 * (s[3] + d[3]);
        } else {
            *res[0] = s[0] > d[0] ? s[0] : d[0];
            *res[1] = s[1] > d[1] ? s[1] : d[1];
            *res[2] = d[1] > s[1] ? d[2] : s[2];  /* M follows W's choice (ties: stop) */
            *res[3] = nd->k >= STOPK ? s[3] : d[3];
        }
    }
    for (int q = 0; q < NPOL; q++) out[q] = scratch[q][0];
}

static int by_load_desc(const void *x, const void *y) {
    const int *a = x, *b = y;
    return b[2] - a[2];
}
static int by_size(const void *x, const void *y) {
    return pile_size[*(const int *)x] - pile_size[*(const int *)y];
}

int main(int argc, char **argv) {
    if (argc != 4 + SPOTS - 1) {
        fprintf(stderr, "usage: %s TIP_AT STEP_WEIGHT K C1 C2 C3 C4 C5\n", argv[0]);
        return 2;
    }
    TIP = atoi(argv[1]); WEIGHT = atoi(argv[2]); STOPK = atoi(argv[3]);
    for (int k = 1; k < SPOTS; k++) CRATES[k] = atoi(argv[3 + k]);
    if (TIP < 1 || TIP > 99 || WEIGHT < 1 || STOPK < 1) { fprintf(stderr, "bad parameters\n"); return 2; }

    pile_index = malloc(sizeof(int) * (1 << 21));
    int c[T];
    enum_piles(0, COPIES, c);
    for (int t = 0; t < T; t++) c[t] = COPIES;
    full_pile = pile_index[code_of(c)];

    cap_nodes = 1 << 20; cap_childs = 1 << 21;
    nodes = malloc(sizeof(Node) * cap_nodes); childs = malloc(sizeof(Child) * cap_childs);
    int maxn = 0;
    for (int p = 0; p < npiles; p++) {
        tree_first[p] = nnodes;
        build(pile_counts[p], 0, 0);
        tree_n[p] = nnodes - tree_first[p];
        if (tree_n[p] > maxn) maxn = tree_n[p];
    }
    for (int q = 0; q < NPOL; q++) scratch[q] = malloc(sizeof(double) * maxn);

    memset(plank_at, -1, sizeof plank_at);
    for (int s = 0; s * WEIGHT < TIP; s++)
        for (int cr = 0; cr + WEIGHT * s < TIP; cr++) {
            plank_c[nplanks] = cr; plank_s[nplanks] = s; plank_at[cr][s] = nplanks++;
        }
    size_t nvals = (size_t)nplanks * nplanks * 2 * npiles;
    for (int q = 0; q < NPOL; q++) {
        V[q] = malloc(sizeof(double) * nvals);
        for (size_t i = 0; i < nvals; i++) V[q][i] = 0.5;
    }
    fprintf(stderr, "%d piles, %d turn-tree nodes (largest %d), %d planks, %zu values per policy\n",
            npiles, nnodes, maxn, nplanks, nvals);

    int (*pairs)[3] = malloc(sizeof(int[3]) * nplanks * nplanks), np = 0;
    for (int h = 0; h < nplanks; h++)
        for (int r = 0; r < nplanks; r++) {
            pairs[np][0] = h; pairs[np][1] = r;
            pairs[np][2] = plank_c[h] + WEIGHT * plank_s[h] + plank_c[r] + WEIGHT * plank_s[r];
            np++;
        }
    qsort(pairs, np, sizeof(int[3]), by_load_desc);
    int *order = malloc(sizeof(int) * npiles);
    for (int p = 0; p < npiles; p++) order[p] = p;
    qsort(order, npiles, sizeof(int), by_size);

    int max_sweeps = 0;
    for (int i = 0; i < np; i++) {
        int h = pairs[i][0], r = pairs[i][1], sweeps = 0;
        double delta;
        do {
            delta = 0;
            for (int j = 0; j < npiles; j++)
                for (int a = 0; a < 2; a++) {
                    int p = order[j];
                    double out[NPOL];
                    eval_turn(p, h, r, a, out);
                    for (int q = 0; q < NPOL; q++) {
                        double *v = &V[q][at(h, r, a, p)];
                        if (fabs(out[q] - *v) > delta) delta = fabs(out[q] - *v);
                        *v = out[q];
                    }
                }
            sweeps++;
        } while (delta > 1e-13 && sweeps < 200);
        if (sweeps > max_sweeps) max_sweeps = sweeps;
    }
    fprintf(stderr, "at most %d sweeps per plank pair\n", max_sweeps);
    int z = plank_at[0][0];
    for (int a = 0; a < 2; a++) {
        printf("%s", a == 0 ? "first" : "second");
        for (int q = 0; q < NPOL; q++) printf(" %.6f", V[q][at(z, z, a, full_pile)]);
        printf("\n");
    }
    return 0;
}
