/* SPDX-License-Identifier: MIT */
/* The table-driven option parser and help printer (see opts.h). */
#include "sbuf.h"
#include "opts.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "strdist_priv.h"

cli_args cli_args_begin(const char *cmd, const cli_opt *opts, int argc, char **argv)
{
    cli_args a = {0};
    a.cmd = cmd;
    a.opts = opts;
    a.argc = argc;
    a.argv = argv;
    a.i = 1;
    return a;
}

static bool is_end(const cli_opt *o)
{
    return !o->name && !o->label && !o->help;
}

/* name as given up to len characters: the row's name or alias */
static bool spelt(const char *s, size_t len, const char *name)
{
    return name && strlen(name) == len && strncmp(s, name, len) == 0;
}

/* Marks o given, with every row that stores into the same place: those are
 * one option under two names (check's --measured-us and --measured). */
static void mark_given(cli_args *a, const cli_opt *o)
{
    for (const cli_opt *q = a->opts; !is_end(q); q++)
        if (q == o || (o->str && q->str == o->str) || (o->flag && q->flag == o->flag))
            if ((size_t)(q - a->opts) < CLI_MAX_OPTS)
                a->given[q - a->opts] = 1;
}

/* The edit distance from the unknown option to a name that makes it a
 * slip of the keyboard rather than another word: one edit in a short name,
 * two from five characters on (--lbi, --timline, --sumary; --ab is no --abc's
 * slip of a two-letter option). */
const char *cli_opts_nearest(const cli_opt *opts, const char *s, size_t len)
{
    char given[64];
    if (len == 0 || len >= sizeof given)
        return NULL;
    memcpy(given, s, len);
    given[len] = '\0';
    int cap = len >= 5 ? 3 : 2;
    const char *best = NULL;
    for (const cli_opt *o = opts; !is_end(o); o++) {
        const char *names[2] = {o->name, o->alias};
        for (int k = 0; k < 2; k++) {
            /* a name shorter than three characters (-o, -b) is no word
             * to suggest for a long option that is not one */
            if (!names[k] || strlen(names[k]) < 3)
                continue;
            int dist = cr_edit_distance(given, names[k], cap);
            if (dist < cap) {
                cap = dist;
                best = names[k];
            }
        }
    }
    return best;
}

/* The option whose value argv[j] is, where argv[j-1] names a row of the
 * table that takes one; NULL for a positional argument. */
static const cli_opt *value_of(const cli_args *a, int j)
{
    const char *p = j > 1 ? a->argv[j - 1] : "";
    if (p[0] != '-' || !p[1] || strchr(p, '='))
        return NULL;
    for (const cli_opt *o = a->opts; !is_end(o); o++)
        if (o->meta && (spelt(p, strlen(p), o->name) || spelt(p, strlen(p), o->alias)))
            return o;
    return NULL;
}

/* An output row's file named by another argument too: writing it would
 * replace that input (topo import-nccl DUMP -o DUMP replaced the dump, sim
 * --timeline and plot -o the --topo file, topo gen -o the --node file; QA
 * audit of the CLI). One check for every command, where calibrate and sim
 * each had their own for some of their inputs. Returns false, the usage
 * error printed, when one is. */
static bool outputs_distinct(const cli_args *a)
{
    for (const cli_opt *o = a->opts; !is_end(o); o++) {
        if (!o->output || !o->str || !*o->str)
            continue;
        const char *out = *o->str;
        for (int j = 1; j < a->argc; j++) {
            const char *w = a->argv[j], *v = w, *eq = NULL;
            if (strcmp(w, "--") == 0)
                break;
            if (w[0] == '-' && w[1]) {
                eq = w[1] == '-' ? strchr(w, '=') : NULL;
                if (!eq)
                    continue; /* an option, or a short one with its value attached */
                v = eq + 1;
            }
            if (v == out || !cli_same_file(v, out))
                continue;
            const cli_opt *by = eq ? NULL : value_of(a, j);
            if (eq)
                cli_usage_error(a->cmd,
                                "%s %s is the %.*s file %s: writing it would replace that "
                                "input; give %s another file",
                                o->name, out, (int)(eq - w), w, v, o->name);
            else if (by)
                cli_usage_error(a->cmd,
                                "%s %s is the %s file %s: writing it would replace that "
                                "input; give %s another file",
                                o->name, out, by->name, v, o->name);
            else
                cli_usage_error(a->cmd,
                                "%s %s is the input %s: writing it would replace it; give %s "
                                "another file",
                                o->name, out, v, o->name);
            return false;
        }
    }
    return true;
}

/* An output row's file must be one the command can put in place: not a
 * folder, and inside a folder that exists. Checked with the arguments,
 * before any work: sim --timeline into a missing folder failed only after
 * the simulation had run and printed its table (QA audit of the CLI).
 * What only the write itself can tell (permissions, a full disk) is the
 * writer's to report. Returns false, the usage error printed, when the
 * place cannot take the file. */
static bool output_place_ok(const cli_args *a, const cli_opt *o, const char *out)
{
    struct stat st;
    size_t n_out = strlen(out);
    /* "out/" names a folder whether or not it exists yet */
    bool folder_named = n_out > 0 && out[n_out - 1] == '/';
    if (folder_named || stat(out, &st) == 0) {
        if (!folder_named && !S_ISDIR(st.st_mode))
            return true;
        cli_usage_error(a->cmd,
                        "%s %s names a folder: give the path of a file (in it or elsewhere)",
                        o->name, out);
        return false;
    }
    if (errno != ENOENT && errno != ENOTDIR) /* ENOTDIR: a file on the way (/etc/passwd/x) */
        return true;
    const char *slash = strrchr(out, '/');
    if (!slash)
        return true; /* the working folder */
    char dir[4096];
    int n = slash == out ? 1 : (int)(slash - out);
    if (n >= (int)sizeof dir)
        return true;
    snprintf(dir, sizeof dir, "%.*s", n, out);
    bool exists = stat(dir, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return true;
    if (exists || errno == ENOTDIR)
        cli_usage_error(a->cmd, "%s %s: %s is not a folder; give a file elsewhere", o->name, out,
                        dir);
    else
        cli_usage_error(a->cmd,
                        "%s %s: the folder %s does not exist; create it first or give a file "
                        "elsewhere",
                        o->name, out, dir);
    return false;
}

/* True when the table's "--json" flag was given: the command prints its
 * document on stdout. */
static bool json_given(const cli_args *a)
{
    for (const cli_opt *o = a->opts; !is_end(o); o++)
        if (o->flag && o->name && strcmp(o->name, "--json") == 0)
            return *o->flag;
    return false;
}

/* Every output row's file checked at the walk's end: not an input, not
 * stdout while --json prints its document there (the file and the
 * document would mix on one stream: sim --timeline, calibrate -o and topo
 * import-nccl and gen -o each checked it, and gen only after a review
 * found it missing), and a place that can take it. */
static bool outputs_ok(const cli_args *a)
{
    if (!outputs_distinct(a))
        return false;
    bool json = json_given(a);
    for (const cli_opt *o = a->opts; !is_end(o); o++) {
        if (!o->output || !o->str || !*o->str)
            continue;
        if (json && cli_is_stdout(*o->str)) {
            cli_usage_error(a->cmd,
                            "%s %s is stdout, where --json prints its document: the two would "
                            "mix on one stream; give %s a file, or leave out --json",
                            o->name, *o->str, o->name);
            return false;
        }
        if (!output_place_ok(a, o, *o->str))
            return false;
    }
    return true;
}

int cli_args_next(cli_args *a)
{
    a->opt = NULL;
    a->name = NULL;
    a->val = NULL;
    if (a->i >= a->argc) {
        if (!a->outputs_checked) {
            a->outputs_checked = true;
            if (!outputs_ok(a))
                return CLI_ARGS_ERROR;
        }
        return CLI_ARGS_END;
    }
    const char *s = a->argv[a->i];
    if (s[0] != '-' || s[1] == '\0') {
        a->val = s;
        a->i++;
        return CLI_ARGS_ARG;
    }
    /* only long options carry "=value": "-o=x" is no spelling of -o */
    const char *eq = s[1] == '-' && s[2] != '\0' ? strchr(s, '=') : NULL;
    size_t len = eq ? (size_t)(eq - s) : strlen(s);
    const cli_opt *o = a->opts;
    for (; !is_end(o); o++)
        if (spelt(s, len, o->name) || spelt(s, len, o->alias))
            break;
    /* a short option's value may follow it at once, as getopt takes it
     * (nccl-tests' -b1M): "-b1M" is -b 1M when no option is spelt so */
    const char *attached = NULL;
    if (is_end(o) && s[1] != '-' && s[2] != '\0') {
        for (o = a->opts; !is_end(o); o++)
            if (o->meta && (spelt(s, 2, o->name) || spelt(s, 2, o->alias)))
                break;
        if (!is_end(o)) {
            attached = s + 2;
            len = 2;
        }
        /* "-o=x" is getopt's -o "=x": report -o=/path wrote into a folder
         * named "=" (QA re-verification); no value of ours begins so */
        if (attached && attached[0] == '=') {
            cli_usage_error(a->cmd,
                            "%s: a short option takes its value after a space or attached, "
                            "not after '=': %.2s %s",
                            s, s, attached + 1);
            return CLI_ARGS_ERROR;
        }
    }
    if (is_end(o)) {
        if (a->pass_unknown)
            return CLI_ARGS_UNKNOWN;
        const char *near = cli_opts_nearest(a->opts, s, len);
        if (near)
            cli_usage_error(a->cmd, "unknown option \"%s\": did you mean %s?", s, near);
        else
            cli_usage_error(a->cmd, "unknown option \"%s\"", s);
        return CLI_ARGS_ERROR;
    }
    a->opt = o;
    a->name = spelt(s, len, o->name) ? o->name : o->alias;
    if (!o->meta) {
        if (eq && o->opens_list && eq[1]) {
            a->val = eq + 1;
        } else if (eq) {
            cli_usage_error(a->cmd, "%.*s takes no value (got \"%s\"): give %.*s alone", (int)len,
                            s, s, (int)len, s);
            return CLI_ARGS_ERROR;
        }
        /* a flag given twice is refused as a value option is (topo gen
         * --sharp --sharp was taken silently): the second says nothing, so
         * the line is not what its writer meant. A flag that opens a list
         * (calibrate --nccl-tests) may open it again. */
        size_t frow = (size_t)(o - a->opts);
        if (!o->repeat && !o->opens_list && frow < CLI_MAX_OPTS) {
            if (a->given[frow]) {
                cli_usage_error(a->cmd, "%.*s given twice: give it once", (int)len, s);
                return CLI_ARGS_ERROR;
            }
            mark_given(a, o);
        }
        a->i++;
        if (o->flag)
            *o->flag = true;
        return CLI_ARGS_OPT;
    }
    if (attached) {
        a->val = attached;
        a->i++;
    } else if (eq) {
        a->val = eq + 1;
        a->i++;
    } else if (a->i + 1 < a->argc) {
        a->val = a->argv[a->i + 1];
        /* "--trace -o DIR" left out the trace: the next word is one of
         * this command's options, never a value anyone means (a value
         * that starts with '-' otherwise stands: --ranks -1 is refused by
         * its own reader, with its own message) */
        const char *v = a->val, *veq = v[0] == '-' && v[1] == '-' ? strchr(v, '=') : NULL;
        size_t vl = veq ? (size_t)(veq - v) : strlen(v);
        for (const cli_opt *q = a->opts; v[0] == '-' && v[1] && !is_end(q); q++)
            if (spelt(v, vl, q->name) || spelt(v, vl, q->alias)) {
                cli_usage_error(a->cmd, "%.*s needs a value before the option %s: %.*s %s",
                                (int)len, s, v, (int)len, s, o->meta);
                return CLI_ARGS_ERROR;
            }
        a->i += 2;
    } else {
        if (s[1] == '-')
            cli_usage_error(a->cmd, "%s needs a value: %s %s or %s=%s", s, s, o->meta, s, o->meta);
        else
            cli_usage_error(a->cmd, "%s needs a value: %s %s", s, s, o->meta);
        return CLI_ARGS_ERROR;
    }
    /* an empty value ("-o ''", "--topo=") names nothing: no option takes one */
    if (!a->val[0]) {
        cli_usage_error(a->cmd, "%.*s needs a value, got an empty one: %.*s %s", (int)len, s,
                        (int)len, s, o->meta);
        return CLI_ARGS_ERROR;
    }
    /* one value per option unless its row says it repeats: a second would
     * silently replace the first */
    size_t row = (size_t)(o - a->opts);
    if (!o->repeat && row < CLI_MAX_OPTS) {
        if (a->given[row]) {
            if (o->str && *o->str)
                cli_usage_error(a->cmd, "%.*s given twice (\"%s\", then \"%s\"): give it once",
                                (int)len, s, *o->str, a->val);
            else
                cli_usage_error(a->cmd, "%.*s given twice (the second: \"%s\"): give it once",
                                (int)len, s, a->val);
            return CLI_ARGS_ERROR;
        }
        mark_given(a, o);
    }
    if (o->str)
        *o->str = a->val;
    return CLI_ARGS_OPT;
}

bool cli_args_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

void cli_opts_help(FILE *f, const cli_opt *opts, int col, unsigned section)
{
    for (const cli_opt *o = opts; !is_end(o); o++) {
        if (!o->help || (section && o->section && !(o->section & section)))
            continue;
        char label[64];
        if (o->label)
            cr_str_copy(label, sizeof label, o->label);
        else if (o->meta)
            snprintf(label, sizeof label, "%s %s", o->name, o->meta);
        else
            cr_str_copy(label, sizeof label, o->name);
        int w = col - 3;
        if ((int)strlen(label) <= w)
            fprintf(f, "  %-*s ", w, label);
        else
            fprintf(f, "  %s\n%*s", label, col, "");
        for (const char *h = o->help; *h;) {
            const char *nl = strchr(h, '\n');
            size_t n = nl ? (size_t)(nl - h) : strlen(h);
            fprintf(f, "%.*s\n", (int)n, h);
            if (!nl)
                break;
            h = nl + 1;
            fprintf(f, "%*s", col, "");
        }
    }
}
