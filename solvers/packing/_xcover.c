/* Exact cover by dancing links (Knuth, Algorithm X/DLX), with capacities on secondary items.
 *
 * Why C: counting is millions of link updates; in Python that is ~10x slower than the C peers
 * we benchmark against (see docs/adr/0002-packing-engine.md). This file is the only compiled
 * code in zoospec; solvers/xcover.py holds a pure-Python twin of the same algorithm, used when
 * the extension was not built, and the tests cross-check the two.
 *
 * Items 0..n_primary-1 must each be covered exactly once; the others are secondary and may be
 * used at most cap[i] times (cap 1 = the usual "at most once"). Branching is on the primary item
 * with the fewest remaining options (Knuth's MRV heuristic).
 *
 * The search is resumable: run(budget, ...) explores at most `budget` nodes and returns, so that
 * Python can report progress, honour a timeout and stay interruptible.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdlib.h>

enum { FRESH = 0, AT_TOP = 1, AT_BACKTRACK = 2, DONE = 3 };

typedef struct {
    PyObject_HEAD
    int n_items, n_primary, n_rows, n_nodes;
    int *len, *llink, *rlink, *cap;    /* per item, index 1..n_items; 0 is the root */
    int *top, *up, *down, *row_of;     /* per node; nodes 1..n_items are the item headers */
    int *row_start, *row_end;          /* per row: its nodes are row_start..row_end-1 */
    int *choice, *branch;              /* per level */
    int level, state;
    long long nodes, solutions;
} Search;

static void hide(Search *s, int p) {
    int r = s->row_of[p];
    for (int q = s->row_start[r]; q < s->row_end[r]; q++) {
        if (q == p) continue;
        s->down[s->up[q]] = s->down[q];
        s->up[s->down[q]] = s->up[q];
        s->len[s->top[q]]--;
    }
}

static void unhide(Search *s, int p) {
    int r = s->row_of[p];
    for (int q = s->row_end[r] - 1; q >= s->row_start[r]; q--) {
        if (q == p) continue;
        s->down[s->up[q]] = q;
        s->up[s->down[q]] = q;
        s->len[s->top[q]]++;
    }
}

static void cover(Search *s, int i) {
    if (i <= s->n_primary) {
        s->rlink[s->llink[i]] = s->rlink[i];
        s->llink[s->rlink[i]] = s->llink[i];
    }
    for (int p = s->down[i]; p != i; p = s->down[p]) hide(s, p);
}

static void uncover(Search *s, int i) {
    for (int p = s->up[i]; p != i; p = s->up[p]) unhide(s, p);
    if (i <= s->n_primary) {
        s->rlink[s->llink[i]] = i;
        s->llink[s->rlink[i]] = i;
    }
}

/* Take the row of node x (its branching item is already covered). */
static void select_row(Search *s, int x) {
    int r = s->row_of[x];
    for (int q = s->row_start[r]; q < s->row_end[r]; q++) {
        if (q == x) continue;
        int j = s->top[q];
        if (j <= s->n_primary) cover(s, j);
        else if (--s->cap[j] == 0) cover(s, j);
    }
}

static void unselect_row(Search *s, int x) {
    int r = s->row_of[x];
    for (int q = s->row_end[r] - 1; q >= s->row_start[r]; q--) {
        if (q == x) continue;
        int j = s->top[q];
        if (j <= s->n_primary) uncover(s, j);
        else if (s->cap[j]++ == 0) uncover(s, j);
    }
}

static int record(Search *s, PyObject *out) {
    PyObject *t = PyTuple_New(s->level);
    if (!t) return -1;
    for (int k = 0; k < s->level; k++) {
        PyObject *v = PyLong_FromLong(s->row_of[s->choice[k]]);
        if (!v) { Py_DECREF(t); return -1; }
        PyTuple_SET_ITEM(t, k, v);
    }
    int rc = PyList_Append(out, t);
    Py_DECREF(t);
    return rc;
}

/* The search proper. Returns 1 when finished, 0 when paused, -1 on a Python error. */
static int search_run(Search *s, long long budget, long long keep, long long stop_at, PyObject *out) {
    long long stop = s->nodes + budget;
    int i, x, best, bl;
    if (s->state == DONE) return 1;
    if (s->state == FRESH) s->level = 0;
    if (s->state == AT_BACKTRACK) goto backtrack;
    for (;;) {
        if (s->rlink[0] == 0) {
            s->solutions++;
            if (keep > 0 && PyList_GET_SIZE(out) < keep && record(s, out) < 0) return -1;
            if (stop_at > 0 && s->solutions >= stop_at) { s->state = AT_BACKTRACK; return 0; }
            goto backtrack;
        }
        best = 0; bl = INT_MAX;
        for (i = s->rlink[0]; i != 0; i = s->rlink[i]) {
            if (s->len[i] < bl) { bl = s->len[i]; best = i; if (bl <= 1) break; }
        }
        if (bl == 0) goto backtrack;
        cover(s, best);
        s->branch[s->level] = best;
        x = s->down[best];
        goto try_row;
    backtrack:
        if (s->level == 0) { s->state = DONE; return 1; }
        s->level--;
        x = s->choice[s->level];
        unselect_row(s, x);
        x = s->down[x];
    try_row:
        i = s->branch[s->level];
        if (x == i) { uncover(s, i); goto backtrack; }
        s->choice[s->level] = x;
        select_row(s, x);
        s->level++;
        s->nodes++;
        if (s->nodes >= stop) { s->state = AT_TOP; return 0; }
    }
}

static void search_free(Search *s) {
    free(s->len); free(s->llink); free(s->rlink); free(s->cap);
    free(s->top); free(s->up); free(s->down); free(s->row_of);
    free(s->row_start); free(s->row_end); free(s->choice); free(s->branch);
    s->len = NULL;
}

static void Search_dealloc(Search *s) {
    search_free(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int fail(const char *msg) { PyErr_SetString(PyExc_ValueError, msg); return -1; }

/* Search(n_primary, caps, rows): caps has one entry per item (1 for each primary item). */
static int Search_init(Search *s, PyObject *args, PyObject *kw) {
    int n_primary;
    PyObject *caps_o, *rows_o;
    static char *names[] = {"n_primary", "caps", "rows", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOO", names, &n_primary, &caps_o, &rows_o)) return -1;
    PyObject *caps = PySequence_Fast(caps_o, "caps must be a sequence");
    if (!caps) return -1;
    PyObject *rows = PySequence_Fast(rows_o, "rows must be a sequence");
    if (!rows) { Py_DECREF(caps); return -1; }
    int rc = -1;
    Py_ssize_t n_items = PySequence_Fast_GET_SIZE(caps), n_rows = PySequence_Fast_GET_SIZE(rows);
    if (n_primary < 0 || n_primary > n_items) { fail("n_primary out of range"); goto done; }
    if (n_items > INT_MAX / 4 || n_rows > INT_MAX / 4) { fail("problem too large"); goto done; }
    search_free(s);
    s->n_items = (int)n_items; s->n_primary = n_primary; s->n_rows = (int)n_rows;
    /* first pass: count nodes */
    Py_ssize_t total = 0;
    for (Py_ssize_t r = 0; r < n_rows; r++) {
        Py_ssize_t k = PySequence_Size(PySequence_Fast_GET_ITEM(rows, r));
        if (k < 0) goto done;
        total += k;
        if (total > INT_MAX / 4) { fail("problem too large"); goto done; }
    }
    int nn = (int)(n_items + 1 + total);
    s->n_nodes = nn;
    s->len = calloc(n_items + 1, sizeof(int)); s->llink = calloc(n_items + 1, sizeof(int));
    s->rlink = calloc(n_items + 1, sizeof(int)); s->cap = calloc(n_items + 1, sizeof(int));
    s->top = calloc(nn, sizeof(int)); s->up = calloc(nn, sizeof(int));
    s->down = calloc(nn, sizeof(int)); s->row_of = calloc(nn, sizeof(int));
    s->row_start = calloc(n_rows + 1, sizeof(int)); s->row_end = calloc(n_rows + 1, sizeof(int));
    s->choice = calloc(n_items + 2, sizeof(int)); s->branch = calloc(n_items + 2, sizeof(int));
    if (!s->len || !s->llink || !s->rlink || !s->cap || !s->top || !s->up || !s->down || !s->row_of
        || !s->row_start || !s->row_end || !s->choice || !s->branch) { PyErr_NoMemory(); goto done; }
    /* item headers; primary items form the circular list from the root */
    s->rlink[0] = n_primary ? 1 : 0; s->llink[0] = n_primary;
    for (int i = 1; i <= n_items; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(caps, i - 1));
        if (c == -1 && PyErr_Occurred()) goto done;
        if (i <= n_primary ? c != 1 : c < 1) { fail("each primary item needs cap 1, each secondary cap >= 1"); goto done; }
        s->cap[i] = (int)c;
        s->up[i] = s->down[i] = i; s->top[i] = 0;
        if (i <= n_primary) { s->llink[i] = i - 1; s->rlink[i] = i == n_primary ? 0 : i + 1; }
    }
    int *seen = calloc(n_items + 1, sizeof(int));
    if (!seen) { PyErr_NoMemory(); goto done; }
    int node = (int)n_items + 1;
    for (int r = 0; r < n_rows; r++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, r), "each row must be a sequence");
        if (!row) { free(seen); goto done; }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(row);
        s->row_start[r] = node;
        for (Py_ssize_t j = 0; j < k; j++) {
            long it = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, j));
            if (it == -1 && PyErr_Occurred()) { Py_DECREF(row); free(seen); goto done; }
            if (it < 0 || it >= n_items) { Py_DECREF(row); free(seen); fail("row names an item out of range"); goto done; }
            int i = (int)it + 1;
            if (seen[i] == r + 1) { Py_DECREF(row); free(seen); fail("row names an item twice"); goto done; }
            seen[i] = r + 1;
            s->top[node] = i; s->row_of[node] = r;
            s->up[node] = s->up[i]; s->down[node] = i;
            s->down[s->up[i]] = node; s->up[i] = node;
            s->len[i]++;
            node++;
        }
        s->row_end[r] = node;
        Py_DECREF(row);
    }
    free(seen);
    s->level = 0; s->state = FRESH; s->nodes = 0; s->solutions = 0;
    rc = 0;
done:
    Py_DECREF(caps); Py_DECREF(rows);
    return rc;
}

static PyObject *Search_run(Search *s, PyObject *args, PyObject *kw) {
    long long budget, keep = 0, stop_at = 0;
    static char *names[] = {"budget", "keep", "stop_at", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|LL", names, &budget, &keep, &stop_at)) return NULL;
    if (!s->len) { PyErr_SetString(PyExc_RuntimeError, "search not initialised"); return NULL; }
    if (budget < 1) { PyErr_SetString(PyExc_ValueError, "budget must be positive"); return NULL; }
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int done = search_run(s, budget, keep, stop_at, out);
    if (done < 0) { Py_DECREF(out); return NULL; }
    return Py_BuildValue("(NN)", PyBool_FromLong(done), out);
}

static PyObject *Search_get_nodes(Search *s, void *c) { (void)c; return PyLong_FromLongLong(s->nodes); }
static PyObject *Search_get_solutions(Search *s, void *c) { (void)c; return PyLong_FromLongLong(s->solutions); }
static PyObject *Search_get_done(Search *s, void *c) { (void)c; return PyBool_FromLong(s->state == DONE); }

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(budget, keep=0, stop_at=0) -> (done, solutions): explore at most `budget` more nodes, "
     "keeping up to `keep` solutions (tuples of row indices) and pausing once `stop_at` are found."},
    {NULL}
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "rows tried so far", NULL},
    {"solutions", (getter)Search_get_solutions, NULL, "solutions found so far", NULL},
    {"done", (getter)Search_get_done, NULL, "whether the whole tree has been explored", NULL},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zoospec.solvers._xcover.Search",
    .tp_doc = "Resumable exact-cover search (dancing links) with capacities on secondary items.",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_xcover", "Compiled exact-cover search for zoospec's packing engine.", -1, NULL, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__xcover(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType); Py_DECREF(m); return NULL;
    }
    return m;
}
