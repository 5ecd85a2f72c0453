args: offload --model 70b --gpu h100 --host-memory 2TiB --json
exit: 0
