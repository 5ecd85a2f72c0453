args: offload --model 70b --gpu h100
exit: 0
