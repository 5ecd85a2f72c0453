args: offload --model 70b --gpu h100 --reserve 0
exit: 0
