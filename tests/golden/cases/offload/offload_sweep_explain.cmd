args: offload --model 70b --gpu h100 --context 8192 --sweep batch=1:64 --explain
exit: 2
