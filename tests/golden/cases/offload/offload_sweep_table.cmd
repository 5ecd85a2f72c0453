args: offload --model 70b --gpu h100 --host-link pcie5,nvlink-c2c --context 8192 --sweep batch=1:64:x4
exit: 0
