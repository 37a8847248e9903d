#ifndef CONFIG_H
#define CONFIG_H

int verbosity = 1;
const char *prefix = "[log]";

void log_msg(const char *msg);

#endif
