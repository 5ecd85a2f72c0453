args: offload --model 70b --gpu h100 --sweep batch=1:64
exit: 2
