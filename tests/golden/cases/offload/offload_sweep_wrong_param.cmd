args: offload --model 70b --gpu h100 --context 8192 --sweep tokens=256:4096
exit: 2
