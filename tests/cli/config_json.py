#!/usr/bin/env python3
"""tests/cli/config_json.py [KEY=VALUE...] - a complete vta_config.json on
stdout: the default configuration (1x16_i8w8a32_15_15_18_17) with the given
keys changed (every key is required by vtasim's reader)."""
import json
import sys

c = {"TARGET": "sim", "HW_VER": "0.0.2", "LOG_INP_WIDTH": 3, "LOG_WGT_WIDTH": 3,
     "LOG_ACC_WIDTH": 5, "LOG_BATCH": 0, "LOG_BLOCK": 4, "LOG_UOP_BUFF_SIZE": 15,
     "LOG_INP_BUFF_SIZE": 15, "LOG_WGT_BUFF_SIZE": 18, "LOG_ACC_BUFF_SIZE": 17}
for kv in sys.argv[1:]:
    k, v = kv.split("=")
    c[k] = int(v)
print(json.dumps(c, indent=1))
