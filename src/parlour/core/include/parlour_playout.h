/*
 * What parlour's compiled playouts share (the _cplayout.c of each game that has one): the
 * lists of ints they take from and hand back to Python, the number they draw from the
 * caller's random() for each action, and the actions they record.
 *
 * Include it after <Python.h>; pyproject.toml's ext-modules put this folder on the include
 * path, and MANIFEST.in ships it in the sdist.
 */
#ifndef PARLOUR_PLAYOUT_H
#define PARLOUR_PLAYOUT_H

/* A Python list of exactly n ints into out; -1 with a ValueError naming `what` else. */
static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    if (!PyList_Check(seq) || PyList_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a list of %d ints", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)v;
    }
    return 0;
}

/* n ints as a new Python list (NULL with the error set when memory runs out). */
static PyObject *ints(const int *v, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* The next number of the caller's random() into *r: one call per action, as
 * State.random_playout defines it; -1 when random() failed. */
static int draw_number(PyObject *random, double *r) {
    PyObject *x = PyObject_CallNoArgs(random);
    if (!x) return -1;
    *r = PyFloat_AsDouble(x);
    Py_DECREF(x);
    if (*r == -1.0 && PyErr_Occurred()) return -1;
    return 0;
}

/* Append action to the list of actions played (none kept when actions is NULL: a search's
 * playout); -1 on an error. */
static int record(PyObject *actions, int action) {
    if (!actions) return 0;
    PyObject *a = PyLong_FromLong(action);
    if (!a) return -1;
    int rc = PyList_Append(actions, a);
    Py_DECREF(a);
    return rc;
}

#endif
