args: offload --model 70b --gpu h100 --batch 8 --context 8192 --sweep batch=1:64
exit: 2
