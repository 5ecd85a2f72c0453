args: validate --serving serving/bad/no_tpot.json --model 70b --system aws-p4d
exit: 2
