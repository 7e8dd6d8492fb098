# A Catmandu store for the test of the harvester against
# Dancer::Plugin::Catmandu::OAI: the records of a JSON file (re-read when
# it changes, so a test can change the repository between harvests),
# searched with the few CQL queries the plugin sends (cql.allRecords,
# <field> exact "<v>", <field> >= / <= "<v>", joined by "and"), in
# datestamp and id order so that the plugin's paginating resumption tokens
# give a stable list. Written for the test: the OAI-PMH provider itself is
# the plugin's.
package UrikitTestStore;
use Catmandu::Sane;
use Moo;
use namespace::clean;
with 'Catmandu::Store';
has file => (is => 'ro', required => 1);
sub bag_class { 'UrikitTestStore::Bag' }

package UrikitTestStore::Bag;
use Catmandu::Sane;
use Moo;
use Catmandu::Hits;
use JSON::PP;
use namespace::clean;
with 'Catmandu::Bag';

my ($mtime, $records) = (-1, []);
sub _records {
    my $file = $_[0]->store->file;
    my $m = (stat $file)[9] . ':' . (-s $file);
    if ($m ne $mtime) {
        open my $fh, '<:raw', $file or die "$file: $!";
        local $/;
        $records = [sort { $a->{datestamp} cmp $b->{datestamp} || $a->{_id} cmp $b->{_id} } @{decode_json(<$fh>)}];
        $mtime = $m;
    }
    $records;
}
sub generator { my @r = @{$_[0]->_records}; sub { shift @r } }
sub get { my ($self, $id) = @_; (grep { $_->{_id} eq $id } @{$self->_records})[0] }
sub add { die 'read only' }
sub delete { die 'read only' }
sub delete_all { die 'read only' }
sub drop { die 'read only' }

sub _matches {
    my ($rec, $term) = @_;
    return 1 if $term =~ /^\s*cql\.allRecords\s*$/;
    my ($field, $op, $v) = $term =~ /^\s*(\S+)\s+(exact|=|>=|<=)\s+"(.*)"\s*$/ or die "CQL term not understood: $term";
    my $x = $rec->{$field};
    my @xs = ref $x eq 'ARRAY' ? @$x : ($x // '');
    return scalar grep { $op eq '>=' ? $_ ge $v : $op eq '<=' ? $_ le $v : $_ eq $v } @xs;
}

sub search {
    my ($self, %args) = @_;
    my $q = $args{cql_query};
    my @terms = $q =~ /\(/ ? ($q =~ /\(([^()]*)\)/g) : ($q);
    my @hits = grep { my $r = $_; !grep { !_matches($r, $_) } @terms } @{$self->_records};
    my $start = $args{start} // 0;
    my $limit = $args{limit} // 10;
    my @page = grep { defined } @hits[$start .. $start + $limit - 1];
    Catmandu::Hits->new(start => $start, limit => $limit, total => scalar @hits, hits => \@page);
}
1;
