/* SPDX-License-Identifier: MIT */
/*
 * model/xml_safe: the one safe way commroof reads and parses XML. Entity
 * bombs, external and parameter entities are refused at their declaration
 * (before anything expands or is fetched), DOCTYPE handling follows the
 * flags, size limits hold for buffers and files, libxml2's errors come back
 * as "origin:line: message" (a failed conversion from the declared
 * encoding too, never on stderr), and line numbers stay right past 65535.
 */
#include "cr_test.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "xml_safe.h"

static cr_status parse(const char *text, unsigned flags, xmlDocPtr *doc, cr_xml_error *e,
                       cr_diag *d)
{
    memset(d, 0, sizeof *d);
    return cr_xml_parse(text, strlen(text), "t.xml", flags, doc, e, d);
}

static void test_good(void **state)
{
    (void)state;
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d;
    assert_int_equal(parse("<a x=\"1\">\n  <b>&amp;&#65;</b>\n</a>\n", 0, &doc, &e, &d), CR_OK);
    assert_non_null(doc);
    assert_string_equal(d.msg, "");
    xmlNode *root = xmlDocGetRootElement(doc);
    assert_string_equal((const char *)root->name, "a");
    xmlChar *txt = xmlNodeGetContent(root->children->next);
    assert_string_equal((const char *)txt, "&A"); /* predefined and character refs only */
    xmlFree(txt);
    xmlFreeDoc(doc);
}

/* Billion laughs: ten entities each ten times the last. Refused at the
 * first declaration (line 3), so nothing is ever expanded. */
static void test_entity_bomb(void **state)
{
    (void)state;
    const char *bomb = "<?xml version=\"1.0\"?>\n"
                       "<!DOCTYPE lolz [\n"
                       " <!ENTITY lol \"lol\">\n"
                       " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
                       " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
                       "]>\n"
                       "<lolz>&lol2;</lolz>\n";
    xmlDocPtr doc = (xmlDocPtr)1;
    cr_xml_error e;
    cr_diag d;
    assert_int_equal(parse(bomb, 0, &doc, &e, &d), CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_ENTITY);
    assert_int_equal(e.line, 3);
    assert_string_equal(e.name, "lol");
    assert_false(e.external);
    assert_string_equal(d.msg, "t.xml:3: entity \"lol\" is refused: entity declarations are not "
                               "allowed (this also stops entity-expansion bombs); write the text "
                               "out in full");
}

/* XXE: an external general entity and an external parameter entity. */
static void test_external_entity(void **state)
{
    (void)state;
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d;
    assert_int_equal(parse("<?xml version=\"1.0\"?>\n<!DOCTYPE a [\n"
                           "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n<a>&xxe;</a>\n",
                           0, &doc, &e, &d),
                     CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_ENTITY);
    assert_true(e.external);
    assert_string_equal(e.name, "xxe");
    assert_string_equal(e.system_id, "file:///etc/passwd");
    assert_string_equal(d.msg, "t.xml:3: external entity \"xxe\" (SYSTEM \"file:///etc/passwd\") "
                               "is refused: commroof never reads external content; write the "
                               "text out in full");
    /* A parameter entity would pull a remote DTD in: refused the same way. */
    assert_int_equal(parse("<!DOCTYPE a [\n\n<!ENTITY % p SYSTEM \"http://example.invalid/x\">\n"
                           "%p;\n]>\n<a/>\n",
                           0, &doc, &e, &d),
                     CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_ENTITY);
    assert_int_equal(e.line, 3);
    assert_string_equal(e.name, "p");
}

/* A DOCTYPE with an internal subset but no entity is allowed by default, and
 * its attribute defaults are not applied (no DTDATTR); a DOCTYPE naming a
 * remote DTD loads without reading it (no DTDLOAD, NONET). CR_XML_NO_DOCTYPE
 * refuses both, on the DOCTYPE's line. */
static void test_doctype(void **state)
{
    (void)state;
    const char *subset = "<?xml version=\"1.0\"?>\n<!DOCTYPE a [\n"
                         "<!ELEMENT a EMPTY>\n<!ATTLIST a x CDATA \"dflt\">\n]>\n<a/>\n";
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d;
    assert_int_equal(parse(subset, 0, &doc, &e, &d), CR_OK);
    assert_non_null(doc);
    assert_null(xmlDocGetRootElement(doc)->properties); /* xmlHasProp would see the DTD */
    xmlFreeDoc(doc);
    const char *remote = "<!DOCTYPE a SYSTEM \"http://example.invalid/a.dtd\">\n<a/>\n";
    assert_int_equal(parse(remote, 0, &doc, &e, &d), CR_OK);
    assert_non_null(doc);
    xmlFreeDoc(doc);

    assert_int_equal(parse(subset, CR_XML_NO_DOCTYPE, &doc, &e, &d), CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_DOCTYPE);
    assert_int_equal(e.line, 2);
    assert_string_equal(e.name, "a");
    assert_string_equal(d.msg, "t.xml:2: <!DOCTYPE is not allowed: this format has no DTD, and "
                               "commroof never reads DTDs or entities");
    assert_int_equal(parse(remote, CR_XML_NO_DOCTYPE, &doc, &e, &d), CR_EPARSE);
    assert_int_equal(e.kind, CR_XML_ERR_DOCTYPE);
    assert_int_equal(e.line, 1);
    /* "<!DOCTYPE" in a comment is text, not a DOCTYPE. */
    assert_int_equal(parse("<!-- no <!DOCTYPE here -->\n<a/>\n", CR_XML_NO_DOCTYPE, &doc, &e, &d),
                     CR_OK);
    xmlFreeDoc(doc);
}

/* libxml2's own error, first one only, as origin:line: message. */
static void test_malformed(void **state)
{
    (void)state;
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d;
    assert_int_equal(parse("<a>\n<b>\n</a>\n", 0, &doc, &e, &d), CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_SYNTAX);
    assert_int_equal(e.code, XML_ERR_TAG_NAME_MISMATCH);
    assert_int_equal(e.line, 3);
    assert_string_equal(e.str1, "b"); /* the open tag, opened on line 2 */
    assert_int_equal(e.int1, 2);
    const char *want = "t.xml:3: not well-formed XML: ";
    assert_memory_equal(d.msg, want, strlen(want));
    assert_null(strchr(d.msg, '\n'));
    assert_int_equal(parse("", 0, &doc, &e, &d), CR_EPARSE);
    assert_int_equal(e.code, XML_ERR_DOCUMENT_EMPTY);
    /* An undeclared entity is an error, not silently dropped. */
    assert_int_equal(parse("<a>&nope;</a>", 0, &doc, &e, &d), CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_SYNTAX);
    assert_string_equal(e.str1, "nope");
    /* 300 nested elements pass libxml2's limit of 256: the message says
     * what is wrong with the file, not which parser option would lift it. */
    char deep[3 * 300 + 1];
    for (int i = 0; i < 300; i++)
        memcpy(deep + 3 * i, "<a>", 3);
    deep[sizeof deep - 1] = '\0';
    assert_int_equal(parse(deep, 0, &doc, &e, &d), CR_EPARSE);
    assert_null(doc);
    assert_string_equal(d.msg, "t.xml:1: elements nest more than 256 deep: no commroof input "
                               "nests that deep; check for unclosed elements");
}

/* A control character in any attribute, of the root or of an element
 * deeper down, is refused with its line, attribute and element; text
 * content and blanks written as references stay as they are. */
static void test_attr_controls(void **state)
{
    (void)state;
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d;
    assert_int_equal(parse("<a n=\"x&#10;y\"/>", 0, &doc, &e, &d), CR_EINVAL);
    assert_null(doc);
    assert_int_equal(e.kind, CR_XML_ERR_CONTROL);
    assert_int_equal(e.line, 1);
    assert_string_equal(e.name, "n");
    assert_string_equal(d.msg, "t.xml:1: attribute \"n\" on <a> holds the control character "
                               "U+000A at byte 2: attribute values are one line of printable "
                               "text; remove the &#10; reference");
    assert_int_equal(
        parse("<a>\n <b/>\n <c>\n  <d k=\"ok\" v=\"&#27;[2J\"/></c></a>", 0, &doc, &e, &d),
        CR_EPARSE); /* ESC is no XML 1.0 character: libxml2 refuses it first */
    assert_int_equal(
        parse("<a>\n <b/>\n <c>\n  <d k=\"ok\" v=\"1&#9;2\"/></c></a>", 0, &doc, &e, &d),
        CR_EINVAL);
    assert_int_equal(e.line, 4);
    assert_string_equal(e.name, "v");
    /* text content, a literal newline in an attribute (a blank by XML's
     * own rule) and &#32; are fine */
    assert_int_equal(parse("<a n=\"x\ny&#32;z\">line\n&#10;text</a>", 0, &doc, &e, &d), CR_OK);
    xmlChar *v = xmlGetProp(xmlDocGetRootElement(doc), (const xmlChar *)"n");
    assert_string_equal((const char *)v, "x y z");
    xmlFree(v);
    xmlFreeDoc(doc);
    /* DEL, the C1 controls and the bidirectional overrides and isolates
     * (which reorder a table's row on a terminal) are refused too, as a
     * reference or as the character itself; other characters are not
     * (QA audit of 2026-12-06) */
    assert_int_equal(parse("<a n=\"a&#x7f;b\"/>", 0, &doc, &e, &d), CR_EINVAL);
    assert_int_equal(parse("<a n=\"a&#x85;b\"/>", 0, &doc, &e, &d), CR_EINVAL);
    assert_int_equal(parse("<a n=\"a\xc2\x9b b\"/>", 0, &doc, &e, &d), CR_EINVAL);
    assert_int_equal(parse("<a n=\"a&#x202e;b\"/>", 0, &doc, &e, &d), CR_EINVAL);
    assert_non_null(strstr(d.msg, "U+202E at byte 2"));
    assert_int_equal(parse("<a n=\"a\xe2\x81\xa6"
                           "b\"/>",
                           0, &doc, &e, &d),
                     CR_EINVAL);
    assert_int_equal(
        parse("<a n=\"caf\xc3\xa9 \xe2\x82\xac \xe2\x80\x94 &#xa0;\"/>", 0, &doc, &e, &d), CR_OK);
    xmlFreeDoc(doc);
}

/* 70,000 newlines first: node lines and error lines are past 65535, where
 * libxml2's 16-bit node->line saturates without XML_PARSE_BIG_LINES. */
static void test_big_lines(void **state)
{
    (void)state;
    const size_t pad = 70000;
    const char *tail_ok = "<a>\n<b>x</b>\n</a>\n", *tail_bad = "<a>\n<b>\n</a>\n";
    char *buf = malloc(pad + 32);
    assert_non_null(buf);
    memset(buf, '\n', pad);
    strcpy(buf + pad, tail_ok);
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d = {{0}};
    assert_int_equal(cr_xml_parse(buf, strlen(buf), "big.xml", 0, &doc, &e, &d), CR_OK);
    xmlNode *b = xmlDocGetRootElement(doc)->children->next;
    assert_string_equal((const char *)b->name, "b");
    assert_int_equal(xmlGetLineNo(b), (long)pad + 2); /* <a> on pad+1, <b> on pad+2 */
    xmlFreeDoc(doc);
    strcpy(buf + pad, tail_bad);
    assert_int_equal(cr_xml_parse(buf, strlen(buf), "big.xml", 0, &doc, &e, &d), CR_EPARSE);
    assert_int_equal(e.line, (int)pad + 3);
    assert_int_equal(e.int1, (int)pad + 2);
    const char *want = "big.xml:70003: not well-formed XML: ";
    assert_memory_equal(d.msg, want, strlen(want));
    free(buf);
}

static void test_size_limit(void **state)
{
    (void)state;
    cr_xml_error e;
    cr_diag d = {{0}};
    assert_int_equal(cr_xml_check_size("x.xml", 4u << 20, 4u << 20, "a suite", &e, &d), CR_OK);
    assert_int_equal(e.kind, CR_XML_ERR_NONE);
    /* 5 MiB = 5 x 1,048,576 = 5,242,880 bytes */
    assert_int_equal(cr_xml_check_size("x.xml", 5u << 20, 4u << 20, "a suite", &e, &d), CR_ERANGE);
    assert_string_equal(
        d.msg, "x.xml: input is 5242880 bytes, more than the 4 MiB limit for a suite file");
    assert_int_equal(e.kind, CR_XML_ERR_SIZE);
    assert_int_equal(e.bytes, 5242880);
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_xml_check_size("y", 101, 100, "a dump", &e, &d), CR_ERANGE);
    assert_string_equal(d.msg,
                        "y: input is 101 bytes, more than the 100 bytes limit for a dump file");

    /* A file: exactly at the limit reads, one byte over is refused unread. */
    char path[] = "/tmp/cr-xml-safe-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char text[1000];
    memset(text, 'a', sizeof text);
    assert_int_equal(write(fd, text, sizeof text), (ssize_t)sizeof text);
    close(fd);
    char *buf = NULL;
    size_t len = 0;
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_xml_read_file(path, 1000, "a test", &buf, &len, &e, &d), CR_OK);
    assert_int_equal(len, 1000);
    assert_int_equal(buf[999], 'a');
    assert_int_equal(buf[1000], '\0');
    free(buf);
    assert_int_equal(cr_xml_read_file(path, 999, "a test", &buf, &len, &e, &d), CR_ERANGE);
    assert_null(buf);
    assert_int_equal(e.kind, CR_XML_ERR_SIZE);
    assert_int_equal(e.bytes, 1000);
    char want[200];
    snprintf(want, sizeof want,
             "%s: input is 1000 bytes, more than the 999 bytes limit for a test file", path);
    assert_string_equal(d.msg, want);
    unlink(path);

    memset(&d, 0, sizeof d);
    assert_int_equal(cr_xml_read_file(path, 999, "a test", &buf, &len, &e, &d), CR_ENOTFOUND);
    assert_int_equal(e.kind, CR_XML_ERR_OPEN);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    assert_string_equal(d.msg, want);
    memset(&d, 0, sizeof d);
    assert_int_equal(cr_xml_read_file("/tmp", 999, "a test", &buf, &len, &e, &d), CR_EIO);
    assert_int_equal(e.kind, CR_XML_ERR_NOTFILE);
    assert_string_equal(d.msg, "/tmp: a directory, not a regular file: give a test XML file");
}

/* libxml2 reports bytes its converter cannot take (a lone UTF-16
 * surrogate here; its own converter, so no iconv is needed) through the
 * thread's structured handler, and with none set printed them to stderr
 * (fuzz_coll_laws, session 30). They come back as the first error, with the
 * bytes and what to do; stderr stays empty; the caller's handler is put
 * back; and an encoding libxml2 converts cleanly still reads. */
static int caller_errors;
static void caller_handler(void *ctx, xmlErrorPtr err)
{
    (void)ctx;
    (void)err;
    caller_errors++;
}

static void test_encoding_errors(void **state)
{
    (void)state;
    static const char decl[] = "<?xml version=\"1.0\" encoding=\"UTF-16LE\"?>\n<a/>";
    char buf[2 * sizeof decl + 4];
    size_t n = 0;
    for (size_t i = 0; decl[i]; i++) { /* ASCII to UTF-16LE */
        buf[n++] = decl[i];
        buf[n++] = '\0';
    }
    buf[n++] = '\0'; /* U+D800, a high surrogate with no low one after it */
    buf[n++] = (char)0xD8;
    buf[n++] = 'A';
    buf[n++] = '\0';

    xmlSetStructuredErrorFunc(&caller_errors, caller_handler);
    fflush(stderr);
    char path[] = "/tmp/cr-xml-stderr-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    assert_true(fd >= 0 && saved >= 0);
    assert_int_equal(dup2(fd, 2), 2);
    xmlDocPtr doc = NULL;
    cr_xml_error e;
    cr_diag d = {{0}};
    cr_status st = cr_xml_parse(buf, n, "t.xml", 0, &doc, &e, &d);
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    off_t printed = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(path);

    assert_int_equal(st, CR_EPARSE);
    assert_null(doc);
    assert_int_equal(e.code, XML_I18N_CONV_FAILED);
    assert_non_null(strstr(d.msg, "t.xml:"));
    assert_non_null(strstr(d.msg, "bytes 0x00 0xD8 0x41 0x00"));
    assert_non_null(strstr(d.msg, "save the file as UTF-8"));
    assert_int_equal(printed, 0);
    assert_int_equal(caller_errors, 0);
    assert_ptr_equal(xmlStructuredError, caller_handler);
    assert_ptr_equal(xmlStructuredErrorContext, &caller_errors);
    xmlSetStructuredErrorFunc(NULL, NULL);

    /* Latin-1, which libxml2 converts itself, still reads */
    const char latin1[] = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a n=\"caf\xe9\"/>";
    assert_int_equal(cr_xml_parse(latin1, strlen(latin1), "l.xml", 0, &doc, &e, &d), CR_OK);
    xmlChar *v = xmlGetProp(xmlDocGetRootElement(doc), (const xmlChar *)"n");
    assert_string_equal((const char *)v, "caf\xc3\xa9");
    xmlFree(v);
    xmlFreeDoc(doc);
}

/* Threads whose first parse runs at once: libxml2 2.9's xmlInitParser is
 * not reentrant, so the library runs it when it is loaded (xml_safe.c),
 * before any thread can call it. Here 8 threads parse together, each
 * must succeed; `valgrind --tool=helgrind build/tests/test_xml_safe`
 * showed the race in xmlInitParser without the load-time call (QA audit
 * of the API, 75 reports from threads opening topologies at once). It
 * runs first, so that its parses are the process's first. */
enum { N_PARSE_THREADS = 8 };
static pthread_barrier_t parse_barrier;

static void *parse_at_once(void *arg)
{
    const char *text = "<topology name=\"x\">\n  <gpu id=\"g\"/>\n</topology>\n";
    pthread_barrier_wait(&parse_barrier);
    xmlDocPtr doc = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_xml_parse(text, strlen(text), "t.xml", 0, &doc, NULL, &d);
    bool ok = st == CR_OK && doc && xmlGetLineNo(xmlDocGetRootElement(doc)->children->next) == 2;
    xmlFreeDoc(doc);
    *(bool *)arg = ok;
    return NULL;
}

static void test_threads_parse_at_once(void **state)
{
    (void)state;
    pthread_t th[N_PARSE_THREADS];
    bool ok[N_PARSE_THREADS] = {false};
    assert_int_equal(pthread_barrier_init(&parse_barrier, NULL, N_PARSE_THREADS), 0);
    for (int i = 0; i < N_PARSE_THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, parse_at_once, &ok[i]), 0);
    for (int i = 0; i < N_PARSE_THREADS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    pthread_barrier_destroy(&parse_barrier);
    for (int i = 0; i < N_PARSE_THREADS; i++)
        assert_true(ok[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_parse_at_once), /* first: the first parses */
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_entity_bomb),
        cmocka_unit_test(test_external_entity),
        cmocka_unit_test(test_doctype),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_attr_controls),
        cmocka_unit_test(test_big_lines),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_encoding_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    xmlCleanupParser();
    return rc;
}
