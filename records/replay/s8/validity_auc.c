/* validity_auc.c — session 8, issue 22 item 6 (records/session8-issue-22-replay.md): how well learned validity
 * features rank the configurations `auto` proposes (evaluations 12..100 of seeds 0..N-1, missing configurations
 * charged) into failures and successes: the area under the ROC curve of each feature, and success counts by bins.
 * m5 is main's novelty model (vkat_validity_chance, negated); m0..m4 are features of the tried forms model
 * (tried-experiments.patch, search_forms.c) computed by the function below, which lived at the end of
 * search_forms.c while this ran (m0 longest run, m1 sum of runs, m2 forms with run >= 5, m3 summed
 * -log(1 - P(rule)), m4 forms with run >= 10). Compiled with bench/strategy_replay's flags and link line against
 * the library with the patch applied. Experiment scaffolding kept as a record, not part of the build.
 *
 *   double vkat_forms_feature(const vkat_forms *f, const uint32_t *choice, int mode, double p0)
 *   {
 *       double acc = 0;
 *       for (size_t r = 0; r < f->ranked; r++) {
 *           const form *o = &f->forms[f->by_run[r]];
 *           if (!beyond(o, form_value(f, o, choice)))
 *               continue;
 *           double m = o->run;
 *           if (mode == 0) return m;
 *           if (mode == 1) acc += m;
 *           if (mode == 2) acc += m >= 5;
 *           if (mode == 3) { double lo = log(0.0025) - m * log(1 - p0); double pr = 1 / (1 + exp(-lo)); acc += -log(1 - pr); }
 *           if (mode == 4) acc += m >= 10;
 *       }
 *       return acc;
 *   }
 */
#include "replay.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
double vkat_forms_feature(const vkat_forms *f, const uint32_t *choice, int mode, double p0);
#define NF 7
static double X[NF][20000]; static int Y[20000]; static int n=0;
int main(int argc,char**argv){
  vkat_replay_table*t; vkat_error e={0}; vkat_replay_load(argv[1],NULL,&t,&e);
  vkat_search_space sp=vkat_replay_space(t); sp.valid=NULL;
  for(int seed=0;seed<atoi(argv[2]);seed++){
  vkat_strategy*s; vkat_strategy_create("auto",&sp,seed,&s,&e);
  vkat_validity*v=vkat_validity_create(&sp,1); vkat_forms*f=vkat_forms_create(&sp);
  uint32_t c[64]; vkat_index_map seen={0};
  int ev=0, nok=0;
  while(ev<100){ if(!vkat_strategy_propose(s,c)) break; int added; vkat_index_map_put(&seen,vkat_search_encode(&sp,c),0,0,&added);
    double sec; int ok=vkat_replay_lookup(t,c,&sec)&&isfinite(sec);
    if(added){ if(ev>=12){ double p0=(nok+1.0)/(ev+2.0); for(int m=0;m<5;m++) X[m][n]=vkat_forms_feature(f,c,m,p0); X[5][n]=-vkat_validity_chance(v,c); X[6][n]=vkat_forms_feature(f,c,3,p0); Y[n++]=ok;}
      ev++; nok+=ok; vkat_validity_observe(v,c,ok?sec:INFINITY); vkat_forms_observe(f,c,ok);}
    vkat_strategy_observe(s,c,ok?sec:INFINITY);}
  vkat_strategy_destroy(s); vkat_validity_free(v); vkat_forms_free(f); vkat_index_map_free(&seen);}
  int nf=0; for(int i=0;i<n;i++) nf+=!Y[i];
  printf("%s: %d evals (12..100), %d failed; AUC:",t->label,n,nf);
  for(int m=0;m<6;m++){ double a=0; for(int i=0;i<n;i++) if(!Y[i]) for(int j=0;j<n;j++) if(Y[j]) a+= X[m][i]>X[m][j]?1:X[m][i]==X[m][j]?0.5:0; printf(" m%d %.3f",m,a/((double)nf*(n-nf)));}
  printf("\n");
  for(int m=1;m<4;m+=2){ printf("m%d bins:",m); for(int b=0;b<16;b++){int tr=0,ok=0; for(int i=0;i<n;i++){ int bb=(int)floor(1.5*log2(X[m][i]+1)); if(bb>15)bb=15; if(bb==b){tr++;ok+=Y[i];}} if(tr) printf(" %d:%d/%d",b,ok,tr);} printf("\n");}
  return 0;}
