args: offload --model 70b --gpu h100 --reserve 1
exit: 2
