/* SPDX-License-Identifier: MIT */
/*
 * Safe XML input for every commroof parser (topologies, NCCL dumps, suites,
 * scenarios): one way to read a file under a size limit and one way to hand
 * a buffer to libxml2 so that no file format can reach the network, read an
 * external file or expand an entity bomb.
 *
 * cr_xml_parse() gives libxml2 XML_PARSE_NONET | XML_PARSE_BIG_LINES |
 * XML_PARSE_NOWARNING and never XML_PARSE_NOENT, XML_PARSE_DTDLOAD,
 * XML_PARSE_DTDATTR or XML_PARSE_HUGE; a SAX hook stops the parse at the
 * first entity declaration (internal, external or parameter), and with
 * CR_XML_NO_DOCTYPE at the first <!DOCTYPE>. Errors come back twice: as a
 * ready "origin:line: message" in the cr_diag, and as the details in a
 * cr_xml_error for parsers whose own wording is more helpful.
 */
#ifndef CR_XML_SAFE_H
#define CR_XML_SAFE_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "status.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* Options for cr_xml_parse(), OR-ed together. */
enum {
    CR_XML_NO_DOCTYPE = 1u << 0, /* refuse any <!DOCTYPE>, even one without a subset */
    CR_XML_NOCDATA = 1u << 1     /* merge CDATA sections into text nodes */
};

/* What went wrong, for callers that word the message themselves. */
typedef enum {
    CR_XML_ERR_NONE = 0,
    CR_XML_ERR_OPEN,    /* the file could not be opened (sys_errno says why) */
    CR_XML_ERR_NOTFILE, /* not a regular file (a directory, a device) */
    CR_XML_ERR_READ,    /* a read failed or the file shrank (sys_errno, 0 if shrank) */
    CR_XML_ERR_SIZE,    /* over the size limit (bytes, limit_bytes) */
    CR_XML_ERR_ENTITY,  /* an entity declaration (name, system_id, external) */
    CR_XML_ERR_DOCTYPE, /* a <!DOCTYPE> under CR_XML_NO_DOCTYPE (name) */
    CR_XML_ERR_SYNTAX,  /* libxml2 found the text not well-formed (code..message) */
    CR_XML_ERR_CONTROL  /* an attribute value holds a control character (line, name) */
} cr_xml_err_kind;

typedef struct {
    cr_xml_err_kind kind;
    int line;                  /* 1-based line of the problem; 0 when unknown */
    int column;                /* CR_XML_ERR_SYNTAX: libxml2's 1-based column; 0 when unknown */
    int sys_errno;             /* CR_XML_ERR_OPEN, CR_XML_ERR_READ */
    long long bytes;           /* CR_XML_ERR_SIZE: the input's size */
    size_t limit_bytes;        /* CR_XML_ERR_SIZE: the limit it broke */
    int external;              /* CR_XML_ERR_ENTITY: has a SYSTEM or PUBLIC id */
    char name[200];            /* entity or DOCTYPE name */
    char system_id[200];       /* CR_XML_ERR_ENTITY: the SYSTEM id, "" when none */
    int code;                  /* CR_XML_ERR_SYNTAX: libxml2's xmlParserErrors code */
    int int1;                  /* libxml2's int1 (e.g. the line a tag was opened on) */
    char str1[200], str2[200]; /* libxml2's str1, str2 (e.g. tag names) */
    char message[300];         /* libxml2's message, one line, no trailing newline */
} cr_xml_error;

/* Checks an input of len bytes against max_bytes. what names the format
 * with its article, as messages say "WHAT file" and "WHAT XML file" ("a
 * topology", "a suite"). Errors: CR_ERANGE with d reading "origin: input is
 * N bytes, more than the L limit for WHAT file" (L in MiB when whole MiB,
 * else bytes); err (may be NULL) gets CR_XML_ERR_SIZE. */
cr_status cr_xml_check_size(const char *origin, size_t len, size_t max_bytes, const char *what,
                            cr_xml_error *err, cr_diag *d);

/* Reads the regular file at path into a new buffer, NUL-terminated (the
 * terminator is not counted in *len), opened with cr_file_open_read() so
 * a FIFO is refused, never waited on. A file over max_bytes is refused
 * from its size before anything is read. what names the format as in
 * cr_xml_check_size(). On success *out is the caller's, free() it; on
 * failure *out is NULL. Errors (d "path: ...", err may be NULL):
 * CR_ENOTFOUND (no such file), CR_EIO (cannot open, not a regular file,
 * read error, file shrank; "path: a FIFO (named pipe), not a regular
 * file: give WHAT XML file"), CR_ERANGE (over max_bytes), CR_ENOMEM. */
cr_status cr_xml_read_file(const char *path, size_t max_bytes, const char *what, char **out,
                           size_t *len, cr_xml_error *err, cr_diag *d);

/* True when len bytes of buf hold nothing but XML white space (space, tab,
 * CR, LF): what libxml2 calls "Document is empty" is then empty indeed,
 * where any other text is a file that is not XML. */
bool cr_xml_is_blank(const char *buf, size_t len);

/* Parses len bytes of buf as XML, safely (see the top of this file).
 * origin names the input in messages ("<memory>" when NULL). flags are
 * CR_XML_* options. On success *out is the document, free it with
 * xmlFreeDoc(); on failure *out is NULL. Errors: CR_EPARSE with d
 * "origin:line: message" (an entity or DOCTYPE refused, or "not
 * well-formed XML: " and libxml2's own message) and the details in err
 * (may be NULL); CR_ERANGE when len is over INT_MAX; CR_ENOMEM. An empty
 * buffer is CR_EPARSE (libxml2's "Document is empty"). */
cr_status cr_xml_parse(const char *buf, size_t len, const char *origin, unsigned flags,
                       xmlDocPtr *out, cr_xml_error *err, cr_diag *d);

/* Attribute name of n (free with xmlFree), NULL when absent; sets *oom
 * where it is there but libxml2 could not copy it: an attribute lost to
 * memory is not one never written (QA audit of allocation failures). With
 * no_ns, only an attribute outside any namespace (xmlGetNoNsProp). */
xmlChar *cr_xml_prop(const xmlNode *n, const char *name, bool no_ns, bool *oom);

#pragma GCC visibility pop

#endif
