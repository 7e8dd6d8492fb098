#!/usr/bin/env perl
# An OAI-PMH harvester no one here wrote, HTTP::OAI::Harvester (Debian
# libhttp-oai-perl), harvesting ListRecords of BASE-URL in METADATA-PREFIX
# (following the resumption tokens itself). Prints a line per record:
# identifier, datestamp, "deleted" or "", and for epicur the URN of
# record/identifier and the resource URLs (space-separated), read from the
# metadata with XML::LibXML; then "pages N". Exits 1 on an OAI-PMH or HTTP error.
use strict;
use warnings;
use HTTP::OAI;
use XML::LibXML;

my ($base, $prefix) = @ARGV;
my $h = HTTP::OAI::Harvester->new(baseURL => $base);
my $id = $h->Identify;
die 'Identify: ' . $id->message . "\n" if $id->is_error;
binmode STDOUT, ':encoding(UTF-8)';
my $r = $h->ListRecords(metadataPrefix => $prefix, onRecord => sub {
    my $rec = shift;
    my ($urn, $urls) = ('', '');
    if (!$rec->is_deleted && $prefix eq 'epicur') {
        # by local name and namespace, from the <metadata> element of the fragment HTTP::OAI builds from its SAX events
        my $e = sub { qq{*[local-name()="$_[0]" and namespace-uri()="urn:nbn:de:1111-2004033116"]} };
        my $record = './' . $e->('epicur') . '/' . $e->('record');
        for my $md ($rec->metadata->dom->childNodes) {
            my $xc = XML::LibXML::XPathContext->new($md);
            $urn = $xc->findvalue("$record/" . $e->('identifier'));
            $urls = join ' ', map { $_->textContent } $xc->findnodes("$record/" . $e->('resource') . '/' . $e->('identifier') . '[@scheme="url"]');
        }
    }
    print join("\t", $rec->identifier, $rec->datestamp, ($rec->is_deleted ? 'deleted' : ''), $urn, $urls), "\n";
});
if ($r->is_error) { print STDERR 'ListRecords: ', $r->code, ' ', $r->message, "\n"; exit 1; }
for my $e ($r->errors) { print STDERR 'OAI-PMH error: ', $e->code, "\n"; exit 1; }
