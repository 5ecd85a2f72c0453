args: offload --model 70b
exit: 2
