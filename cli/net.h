/*
 * net.h - whole networks on the command line (cli/net.c, cli/run_net.c): `vtasim gen
 * resnet18` and `vtasim run NET.net`.  Same argv conventions and exit codes
 * as the other subcommands.
 */
#ifndef VTASIM_NET_H
#define VTASIM_NET_H

/* argv[0] "gen", argv[1] "resnet18" or "net" (argv[2] the description). */
int vtasim_cmd_gen_net(int argc, char **argv);
/* 1 when the file is named *.net or starts with the manifest header (docs/network.md). */
int vtasim_net_is_manifest(const char *path);
/* `vtasim run NET.net`, its options parsed by run (options.h): the
 * manifest's layers in order. */
struct vtasim_opts;
int vtasim_run_net(const struct vtasim_opts *o);
void vtasim_run_net_help(void);

#endif
