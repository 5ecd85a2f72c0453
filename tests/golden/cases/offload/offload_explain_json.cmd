args: offload --model 70b --gpu h100 --host-link pcie5 --explain --json
exit: 0
