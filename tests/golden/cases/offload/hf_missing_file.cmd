args: offload --hf-config hf/no_such_config.json --gpu h100
exit: 2
