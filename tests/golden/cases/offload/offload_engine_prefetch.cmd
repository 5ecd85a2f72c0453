args: offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c --offload-engine prefetch
exit: 0
