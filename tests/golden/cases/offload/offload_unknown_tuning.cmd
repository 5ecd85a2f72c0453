args: offload --model 70b --gpu mi300x --tuning fast
exit: 2
