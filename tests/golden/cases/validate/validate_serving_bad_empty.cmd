args: validate --serving serving/bad/empty.json --model 70b --system aws-p4d
exit: 2
