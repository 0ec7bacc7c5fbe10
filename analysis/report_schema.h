/*
 * report_schema.h - private to analysis/: a run report (vtasim-run/2,
 * docs/report-json.md) or a network report (vtasim-net/1, docs/network.md)
 * checked against its schema before the page is drawn from it, and a
 * baseline checked to be comparable with a report.
 */
#ifndef VTA_REPORT_SCHEMA_H
#define VTA_REPORT_SCHEMA_H

#include "vta_err.h"

struct cJSON;

/* Every field the page reads: present, of its type, finite and in range;
 * an error "FILE: field 'PATH' ..." naming the first that is not. */
int vta_report_check(const struct cJSON *j, int net, const char *file, vta_err *err);

/* One VTASIM_REPORT record of the driver (vtasim-driver-run/1): the fields
 * the run list reads, an error "WHERE: field 'PATH' ..." (WHERE names the
 * file and its line or element). */
int vta_report_check_record(const struct cJSON *r, const char *where, vta_err *err);

/* A baseline of the report's kind, and for a network of the same layers
 * (names and shapes, in order); an error naming the first difference. */
int vta_report_check_baseline(const struct cJSON *doc, int doc_net, const char *doc_file,
                              const struct cJSON *base, int base_net, const char *base_file,
                              vta_err *err);

#endif
