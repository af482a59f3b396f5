/* SPDX-License-Identifier: MIT */
/*
 * validate: the one folder walk that gathers traces for every command
 * (validate_priv.h cr_vtrace_each; cr_validate_read_path, roofline, plot
 * and report through it).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sbuf.h"
#include "grow.h"
#include "traces/reader/trace_file.h"
#include "validate.h"
#include "validate_priv.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The one rule for which files of a folder are traces, wherever validate/,
 * plots/ and the CLI gather them: *.json and *.json.gz, hidden files (a
 * leading '.', as a shell's * leaves them out: editors' and macOS's "._"
 * companions) left out. */
static bool is_trace_name(const char *name)
{
    size_t len = strlen(name);
    if (name[0] == '.')
        return false;
    return (len > 5 && strcmp(name + len - 5, ".json") == 0) ||
           (len > 8 && strcmp(name + len - 8, ".json.gz") == 0);
}

/* Whether the file at path was read already in this walk (info->seen);
 * records it when not. A file that cannot be stat'ed is left to the
 * reader, which says why. */
static bool read_before(const char *path, cr_vread_info *info)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return false;
    unsigned long long dev = (unsigned long long)sb.st_dev, ino = (unsigned long long)sb.st_ino;
    for (int i = 0; i < info->n_seen; i++)
        if (info->seen[i].dev == dev && info->seen[i].ino == ino)
            return true;
    if (info->n_seen < CR_VREAD_SEEN_MAX) {
        info->seen[info->n_seen].dev = dev;
        info->seen[info->n_seen].ino = ino;
        info->n_seen++;
    }
    return false;
}

static cr_status given_twice(const char *path, cr_diag *d)
{
    return cr_diag_set(d, CR_EDUPLICATE,
                       "%s is given twice (itself, or inside a folder also given): give it once "
                       "(its cases would count twice)",
                       path);
}

/* Whether the folder's file path, which did not read, is a trace all the
 * same: its first event reads (a trace cut or damaged further on: a
 * negative duration, a gzip stream broken after its start). Another
 * tool's JSON has no first event, and may be left out; a trace may not:
 * its times would go unchecked, an impossible one among them. */
static bool starts_as_trace(const char *path)
{
    cr_trace_file vt;
    cr_diag dd = {{0}};
    if (cr_trace_file_open(&vt, path, &dd) != CR_OK)
        return false;
    const cr_trace_event *ev = NULL;
    bool trace = cr_trace_reader_next(vt.r, &ev, &dd) == CR_OK && ev != NULL;
    cr_trace_file_close(&vt);
    return trace;
}

cr_status cr_vtrace_each(const char *path, cr_vtrace_fn fn, void *ctx, cr_vread_info *info,
                         cr_diag *d)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return read_before(path, info) ? given_twice(path, d) : fn(path, ctx, info, d);
    DIR *dp = opendir(path);
    if (!dp)
        return cr_diag_set(d, CR_EIO, "%s: cannot open folder: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int read = 0, subdirs = 0;
    cr_status st = CR_OK;
    /* "DIR/" given: no "DIR//name" in the messages */
    const char *sep = path[0] && path[strlen(path) - 1] == '/' ? "" : "/";
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (!is_trace_name(e->d_name)) {
            /* subfolders are not read; counted for the message below */
            struct stat es;
            char sub[4096];
            if (e->d_name[0] != '.' &&
                (size_t)snprintf(sub, sizeof sub, "%s%s%s", path, sep, e->d_name) < sizeof sub &&
                stat(sub, &es) == 0 && S_ISDIR(es.st_mode))
                subdirs++;
            continue;
        }
        if (cr_grow((void **)&names, &cap, n + 1, sizeof *names)) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        size_t sz = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(sz))) {
            st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        snprintf(names[n++], sz, "%s%s%s", path, sep, e->d_name);
    }
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (read_before(names[i], info)) {
            st = given_twice(names[i], d);
            goto out;
        }
        cr_diag fd = {{0}};
        cr_status fs = fn(names[i], ctx, info, &fd);
        /* out of memory, a copy of a trace read before, or a trace that
         * does not read: the whole reading fails (a copy is no stray file
         * to leave out, a damaged trace no other tool's file) */
        if (fs == CR_ENOMEM || fs == CR_EDUPLICATE || (fs != CR_OK && starts_as_trace(names[i]))) {
            st = cr_diag_set(d, fs, "%s", fd.msg);
            goto out;
        }
        if (fs != CR_OK) {
            if (info->not_traces++ == 0)
                snprintf(info->not_trace_why, sizeof info->not_trace_why, "%.300s", fd.msg);
            continue;
        }
        read++;
    }
    if (read == 0 && n == 0 && subdirs > 0)
        st = cr_diag_set(d, CR_EIO,
                         "%s: no trace file (*.json, *.json.gz) in this folder; its %d subfolder%s "
                         "%s not read: give %s (%s%s*/ in a shell)",
                         path, subdirs, subdirs == 1 ? "" : "s", subdirs == 1 ? "is" : "are",
                         subdirs == 1 ? "it" : "them", path, sep);
    else if (read == 0)
        st =
            cr_diag_set(d, CR_EIO, "%s: no trace file (*.json, *.json.gz) in this folder reads%s%s",
                        path, n ? "; first: " : "", n ? info->not_trace_why : "");
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(dp);
    return st;
}

static unsigned long long fnv1a(const char *s)
{
    unsigned long long h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Whether the trace ti names (host, process, start) was read before under
 * another name; records it otherwise. A trace that names none of them (a
 * hand-made one, another tool's) is not compared. */
static bool copy_read_before(cr_vread_info *info, const cr_trace_info *ti)
{
    if (!ti->ts_base_ns || !ti->os_pid || !ti->hostname[0])
        return false;
    unsigned long long h = fnv1a(ti->hostname);
    for (int i = 0; i < info->n_ids; i++)
        if (info->ids[i].ts_base_ns == ti->ts_base_ns && info->ids[i].os_pid == ti->os_pid &&
            info->ids[i].host_hash == h)
            return true;
    if (info->n_ids < CR_VREAD_SEEN_MAX) {
        info->ids[info->n_ids].ts_base_ns = ti->ts_base_ns;
        info->ids[info->n_ids].os_pid = ti->os_pid;
        info->ids[info->n_ids].host_hash = h;
        info->n_ids++;
    }
    return false;
}

cr_status cr_vread_note_trace(cr_vread_info *info, const char *path, const cr_trace_info *ti,
                              cr_diag *d)
{
    if (copy_read_before(info, ti))
        return cr_diag_set(d, CR_EDUPLICATE,
                           "%s is a copy of a trace read before it (host %s, process %lld, "
                           "started at ts_base_ns %lld): give it once (its cases would count "
                           "twice)",
                           path, ti->hostname, ti->os_pid, (long long)ti->ts_base_ns);
    if (!ti->complete && info->incomplete++ == 0)
        cr_str_copy(info->incomplete_path, sizeof info->incomplete_path, path);
    unsigned missing = CR_TRACE_REC_TIMED & ~ti->recorded;
    if (!missing)
        return CR_OK;
    info->unrecorded_kinds |= missing;
    cr_trace_rec_words(info->unrecorded_kinds, info->unrecorded_what, sizeof info->unrecorded_what);
    if (info->unrecorded++ == 0)
        cr_str_copy(info->unrecorded_path, sizeof info->unrecorded_path, path);
    return CR_OK;
}
