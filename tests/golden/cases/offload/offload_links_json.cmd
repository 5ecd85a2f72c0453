args: offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c --json
exit: 0
